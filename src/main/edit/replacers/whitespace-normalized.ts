/**
 * Rung 4, whitespace-normalized: oldString fits once every whitespace run is treated as one space.
 * - Several lines (or a line ending in a line break): whole-line windows whose lines are equal after collapsing
 *   whitespace and trimming.
 * - One line: a regular expression made of oldString's words (escaped) joined by "one or more spaces or tabs",
 *   found anywhere in a line. When oldString starts with whitespace it is read as a whole line from its start, so
 *   the span takes the line's indentation too and the loop can keep the file's indentation.
 * Two file lines that differ only in spacing both fit, so the loop sees two places (bug B03).
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { collapse, lineWindow, windowEquals } from './shared';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function* multiLine(ctx: SearchContext): Generator<Candidate> {
  const keys = ctx.oldLines.map(collapse);
  if (keys.every((k) => k.length === 0)) return;
  const lines = ctx.text.lines;
  const firstKey = keys[0] ?? '';
  // cheap pre-filter: the first word must occur in the line before paying for a regex collapse
  const firstWord = firstKey.split(' ')[0] ?? '';
  for (let i = 0; i + keys.length <= lines.length; i++) {
    if (!ctx.budget.spend(1)) return;
    const line = lines[i] ?? '';
    if (!line.includes(firstWord) || collapse(line) !== firstKey) continue;
    if (windowEquals(lines, i, keys, collapse)) yield lineWindow(ctx, i, keys.length, 'whitespace-normalized');
  }
}

function* singleLine(ctx: SearchContext): Generator<Candidate> {
  const words = ctx.old.trim().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) return;
  const wholeLine = /^[ \t]/.test(ctx.old);
  const pattern = (wholeLine ? '^[ \\t]*' : '') + words.map(escapeRegExp).join('[ \\t]+');
  const re = new RegExp(pattern, 'gm');
  if (!ctx.budget.spend(ctx.content.length / 8)) return;
  for (let m = re.exec(ctx.content); m !== null; m = re.exec(ctx.content)) {
    const start = m.index;
    yield { start, end: start + m[0].length, rung: 'whitespace-normalized', matched: ctx.old, lineAligned: wholeLine, distortions: [] };
    re.lastIndex = start + 1;
  }
}

function find(ctx: SearchContext): Iterable<Candidate> {
  return ctx.oldLines.length > 1 || ctx.oldEndsWithNewline ? multiLine(ctx) : singleLine(ctx);
}

export const whitespaceNormalized: Replacer = { name: 'whitespace-normalized', find };
