/**
 * Shapes of a landing and the last step of every edit: splicing planned pieces into the real file text.
 *
 * The engine plans on a view of the file (line-endings.ts: LF text without BOM, or the raw text for a one-line
 * oldString); `render` maps each piece back to the raw file, writes the piece with the line endings of the lines
 * it replaces (FileView.endingsFor) and copies every byte outside the pieces unchanged — truth from disk, BOM
 * kept, untouched lines byte-identical. It also says whether any piece changed a byte (no_change otherwise),
 * comparing pieces only, never the whole file.
 *
 * Line numbers of a landing are counted on first read (`Landing`): an exact edit is one search and one
 * uniqueness check, and the line count of a 20k-line file costs more than that search; the tool reads them once
 * for its summary, and a caller that only needs the content never pays for them.
 */
import type { LandingRung } from './types';
import type { FileView } from './line-endings';
import type { TextIndex } from './text';

/** One replacement planned on the normalised text: [start, end) becomes `text` (LF). */
export interface Piece {
  start: number;
  end: number;
  text: string;
}

/**
 * A landing decided by the loop, not yet applied. `repeat` (the exact rung's lean path, exact.ts) stands for
 * one piece per start, all of the same length and text — thousands for a replaceAll — without an object each;
 * `pieces` is then empty (piecesOf gives them when a caller needs objects).
 */
export interface Plan {
  rung: LandingRung;
  pieces: Piece[];
  corrections: string[];
  repeat?: { starts: number[]; length: number; text: string };
}

/** The plan's pieces as objects (sorted by start). */
export function piecesOf(plan: Plan): Piece[] {
  const r = plan.repeat;
  return r ? r.starts.map((start) => ({ start, end: start + r.length, text: r.text })) : plan.pieces;
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

/** The spliced file: new content, each piece's span in the raw input (parallel arrays), and whether a byte changed. */
export interface Rendered {
  content: string;
  starts: number[];
  ends: number[];
  changed: boolean;
}

/** Splice `pieces` (sorted, non-overlapping, offsets into `view.text`) into the raw file. */
export function render(raw: string, view: FileView, pieces: readonly Piece[]): Rendered {
  let content = '';
  let from = 0;
  let changed = false;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const p of pieces) {
    const start = view.toOriginal(p.start);
    const end = view.toOriginal(p.end);
    const text = view.endingsFor(p.start, p.end, p.text);
    if (!changed && (end - start !== text.length || raw.slice(start, end) !== text)) changed = true;
    content += raw.slice(from, start) + text;
    from = end;
    starts.push(start);
    ends.push(end);
  }
  content += raw.slice(from);
  return { content, starts, ends, changed };
}

/** render() for a plan, without piece objects when it is a `repeat` (one pass over the starts). */
export function renderPlan(raw: string, view: FileView, plan: Plan): Rendered {
  const r = plan.repeat;
  if (!r) return render(raw, view, plan.pieces);
  if (r.starts.length === 1) return renderOne(raw, view, r.starts[0] as number, r.length, r.text);
  const n = r.starts.length;
  const starts: number[] = new Array<number>(n);
  const ends: number[] = new Array<number>(n);
  // One text for every place when no line break is in it (no ending to choose per place).
  const same = r.text.includes('\n') ? undefined : r.text;
  let content = '';
  let from = 0;
  let changed = false;
  for (let k = 0; k < n; k++) {
    const at = r.starts[k] as number;
    const start = view.toOriginal(at);
    const end = view.toOriginal(at + r.length);
    const text = same ?? view.endingsFor(at, at + r.length, r.text);
    if (!changed && (end - start !== text.length || raw.slice(start, end) !== text)) changed = true;
    content += raw.slice(from, start) + text;
    from = end;
    starts[k] = start;
    ends[k] = end;
  }
  content += raw.slice(from);
  return { content, starts, ends, changed };
}

/** renderPlan for one exact place (the common edit): the splice alone, no per-piece bookkeeping. */
function renderOne(raw: string, view: FileView, at: number, length: number, replacement: string): Rendered {
  const start = view.toOriginal(at);
  const end = view.toOriginal(at + length);
  const text = view.endingsFor(at, at + length, replacement);
  const changed = end - start !== text.length || raw.slice(start, end) !== text;
  return { content: raw.slice(0, start) + text + raw.slice(end), starts: [start], ends: [end], changed };
}

/** 1-based first and last line of each span (sorted, offsets into `raw`): one pass over the line breaks. */
function lineNumbers(raw: string, starts: readonly number[], ends: readonly number[]): LandedSpan[] {
  let line = 0;
  let pos = 0;
  const advance = (to: number): number => {
    for (let nl = raw.indexOf('\n', pos); nl !== -1 && nl < to; nl = raw.indexOf('\n', nl + 1)) line++;
    pos = Math.max(pos, to);
    return line + 1;
  };
  return starts.map((start, k) => {
    const end = ends[k] ?? start;
    return { start, end, startLine: advance(start), endLine: advance(Math.max(start, end - 1)) };
  });
}

/**
 * A landed edit as replace() answers it (ReplaceSuccess). `startLine`, `endLine` and `spans` are getters that count
 * the lines on first read (see module doc) — on the prototype, so building one costs what a plain object costs
 * (own accessors cost more than the exact edit's bookkeeping around its one search); `plain()` and `toJSON()` give
 * every field as data.
 */
export class Landing implements ReplaceSuccess {
  #lines: LandedSpan[] | undefined;
  readonly #at: { raw: string; starts: readonly number[]; ends: readonly number[] };

  constructor(
    readonly content: string,
    readonly rung: LandingRung,
    readonly start: number,
    readonly end: number,
    readonly replacements: number,
    readonly corrections: string[],
    at: { raw: string; starts: readonly number[]; ends: readonly number[] },
  ) {
    this.#at = at;
  }

  get spans(): LandedSpan[] {
    return (this.#lines ??= lineNumbers(this.#at.raw, this.#at.starts, this.#at.ends));
  }

  get startLine(): number {
    return this.spans[0]?.startLine ?? 1;
  }

  get endLine(): number {
    const spans = this.spans;
    return spans[spans.length - 1]?.endLine ?? 1;
  }

  /** Every field but the file's text as plain data (lines counted now). */
  plain(): Omit<ReplaceSuccess, 'content'> {
    const { rung, start, end, startLine, endLine, replacements, spans, corrections } = this;
    return { rung, start, end, startLine, endLine, replacements, spans, corrections };
  }

  toJSON(): ReplaceSuccess {
    return { content: this.content, ...this.plain() };
  }
}

/** The success value of a landing in `raw` (the file before the edit), offsets `starts`/`ends` into `raw`. */
export function landingOf(
  plan: Plan,
  content: string,
  raw: string,
  starts: readonly number[],
  ends: readonly number[],
): Landing {
  const start = starts[0] ?? 0;
  const end = ends[ends.length - 1] ?? 0;
  return new Landing(content, plan.rung, start, end, starts.length, plan.corrections, { raw, starts, ends });
}
