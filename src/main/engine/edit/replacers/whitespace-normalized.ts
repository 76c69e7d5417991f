/**
 * Rung 4, whitespace-normalized: oldString fits once every whitespace run is treated as one space.
 * - Several lines (or a line ending in a line break): whole-line windows whose lines are equal after collapsing
 *   whitespace and trimming.
 * - One line: a regular expression made of oldString's words (escaped) joined by "one or more spaces or tabs",
 *   found anywhere in a line. When oldString starts with whitespace it is first read as a whole line from its
 *   start, so the span takes the line's indentation too and the loop can keep the file's indentation; failing
 *   that, mid-line, with the surrounding whitespace treated as a boundary (the loop strips the same from newString).
 * Two file lines that differ only in spacing both fit, so the loop sees two places (fixtures/bugs/README.md B03).
 */
import type { Candidate, Distortion, Replacer, SearchContext } from '../types';
import { collapse, lineWindow, windowMatches } from './shared';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function* multiLine(ctx: SearchContext): Generator<Candidate> {
  if (ctx.old.trim().length === 0) return;
  // oldString's anchor (a long piece of a word) occurs verbatim in its file line: one search finds the few lines
  // worth collapsing (no regex work on the thousands of lines that cannot fit; a long run is a rare one)
  const { run: word, line: anchor } = ctx.anchor();
  if (word.length === 0) return;
  // keys are collapsed on demand: most windows fail on their first lines
  const keys: string[] = [];
  const keyAt = (k: number): string => (keys[k] ??= collapse(ctx.oldLines[k] ?? ''));
  const collapsedAt = (i: number): string => collapse(ctx.text.line(i));
  const n = ctx.oldLines.length;
  for (const hit of ctx.text.linesContaining(word)) {
    if (ctx.budget.exhausted) return;
    const i = hit - anchor;
    if (windowMatches(ctx, i, n, keyAt, collapsedAt)) yield lineWindow(ctx, i, n, 'whitespace-normalized');
  }
}

function* singleLine(ctx: SearchContext): Generator<Candidate> {
  const words = ctx.old
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length === 0) return;
  const body = words.map(escapeRegExp).join('[ \\t]+');
  const trailing = /\s*$/.exec(ctx.old)?.[0] ?? '';
  // an oldString starting with whitespace is first read as a whole line (its indentation), then mid-line
  const modes = /^[ \t]/.test(ctx.old) ? [true, false] : [false];
  for (const wholeLine of modes) {
    // whitespace around a mid-line oldString is a boundary the file does not have: strip the same from newString
    const leading = wholeLine ? '' : (/^\s*/.exec(ctx.old)?.[0] ?? '');
    const distortions: Distortion[] = leading || trailing ? [{ kind: 'boundary', leading, trailing }] : [];
    const re = new RegExp((wholeLine ? '^[ \\t]*' : '') + body, 'gm');
    if (!ctx.budget.spend(ctx.content.length / 8)) return;
    let found = false;
    for (let m = re.exec(ctx.content); m !== null; m = re.exec(ctx.content)) {
      found = true;
      yield {
        start: m.index,
        end: m.index + m[0].length,
        rung: 'whitespace-normalized',
        matched: ctx.old,
        lineAligned: wholeLine,
        distortions,
      };
      re.lastIndex = m.index + 1;
    }
    if (found) return;
  }
}

function find(ctx: SearchContext): Iterable<Candidate> {
  return ctx.oldLines.length > 1 || ctx.oldEndsWithNewline ? multiLine(ctx) : singleLine(ctx);
}

export const whitespaceNormalized: Replacer = { name: 'whitespace-normalized', kind: 'cosmetic', find };
