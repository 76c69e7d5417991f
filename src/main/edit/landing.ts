/**
 * Shapes of a landing and the last step of every edit: splicing planned pieces into the real file text.
 *
 * The engine plans on normalised text (LF, no BOM); `render` maps each piece back to the raw file, writes the
 * piece with the line endings of the lines it replaces (line-endings.ts endingsFor) and copies every byte
 * outside the pieces unchanged — truth from disk, BOM kept, untouched lines byte-identical.
 */
import type { LandingRung } from './types';
import type { NormalizedFile } from './line-endings';
import { endingsFor, toOriginal } from './line-endings';
import type { TextIndex } from './text';

/** One replacement planned on the normalised text: [start, end) becomes `text` (LF). */
export interface Piece {
  start: number;
  end: number;
  text: string;
}

/** A landing decided by the loop, not yet applied. */
export interface Plan {
  rung: LandingRung;
  pieces: Piece[];
  corrections: string[];
}

/** Where one replacement landed in the input: UTF-16 offsets into the raw content, 1-based lines. */
export interface LandedSpan {
  start: number;
  end: number;
  startLine: number;
  endLine: number;
}

/**
 * A landed edit. `start`/`end`/`startLine`/`endLine` cover every replaced span (one span unless replaceAll);
 * `spans` lists them one by one; `corrections` names each inverse distortion applied to newString.
 */
export interface ReplaceSuccess {
  content: string;
  rung: LandingRung;
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  replacements: number;
  spans: LandedSpan[];
  corrections: string[];
}

/** 1-based line range of the normalised span [start, end). */
export function lineRange(text: TextIndex, start: number, end: number): { startLine: number; endLine: number } {
  return { startLine: text.lineOf(start) + 1, endLine: text.lineOf(Math.max(start, end - 1)) + 1 };
}

/** Splice `pieces` (sorted, non-overlapping, normalised offsets) into the raw file. */
export function render(
  raw: string,
  file: NormalizedFile,
  text: TextIndex,
  pieces: readonly Piece[],
): { content: string; spans: LandedSpan[] } {
  let content = '';
  let from = 0;
  const spans: LandedSpan[] = [];
  for (const p of pieces) {
    const start = toOriginal(file, p.start);
    const end = toOriginal(file, p.end);
    content += raw.slice(from, start) + endingsFor(file, p.start, p.end, p.text);
    from = end;
    spans.push({ start, end, ...lineRange(text, p.start, p.end) });
  }
  content += raw.slice(from);
  return { content, spans };
}

/** Assemble the success value from rendered spans. */
export function success(plan: Plan, content: string, spans: LandedSpan[]): ReplaceSuccess {
  const first = spans[0] ?? { start: 0, end: 0, startLine: 1, endLine: 1 };
  const last = spans[spans.length - 1] ?? first;
  return {
    content,
    rung: plan.rung,
    start: first.start,
    end: last.end,
    startLine: first.startLine,
    endLine: last.endLine,
    replacements: spans.length,
    spans,
    corrections: plan.corrections,
  };
}
