/**
 * Line index over a text: line starts, single lines (sliced on demand), trimmed lines (cached), a trimmed-line
 * lookup and a non-blank-line count, each built on first use.
 *
 * Why lazy: the exact rung needs none of it, and an exact edit in a 20k-line file must stay a single indexOf.
 * Lookups of a trimmed line go through indexOf over the raw text rather than a map of every line: building a
 * 20k-entry map costs more than the whole search it would serve. Lines are split on LF only (the engine works
 * on LF-normalised text); offsets are UTF-16 indices.
 */
import { upperBound } from '../text/binary-search';
import { lineStarts } from '../text/lines';

/** Lazily built line structures of one text. */
export class TextIndex {
  readonly text: string;
  private starts?: number[];
  private trimmedCache: (string | undefined)[] = [];
  private byTrimmed = new Map<string, number[]>();
  private nonBlankPrefix?: Int32Array;
  private directCounts = 0;
  private containing = new Map<string, number[]>();

  constructor(text: string) {
    this.text = text;
  }

  /** Offset of the first character of every line (0-based line index → offset). */
  get lineStarts(): number[] {
    return (this.starts ??= lineStarts(this.text));
  }

  /** Number of lines (a final line break yields a last empty line). */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Line `i` (0-based) without its line break; '' past the end. */
  line(i: number): string {
    const start = this.lineStarts[i];
    return start === undefined ? '' : this.text.slice(start, this.lineEnd(i));
  }

  /** Line `i` with leading and trailing whitespace removed (cached). */
  trimmedLine(i: number): string {
    let t = this.trimmedCache[i];
    if (t === undefined) {
      t = this.line(i).trim();
      this.trimmedCache[i] = t;
    }
    return t;
  }

  /**
   * Number of non-blank lines among lines [first, last]: counted directly for the first few questions (one
   * window to check costs less than a table), then O(1) from a table built in one pass over the text.
   */
  nonBlankBetween(first: number, last: number): number {
    if (!this.nonBlankPrefix && this.directCounts < 8) {
      this.directCounts++;
      let n = 0;
      for (let i = first; i <= last; i++) if (this.trimmedLine(i).length > 0) n++;
      return n;
    }
    if (!this.nonBlankPrefix) {
      const prefix = new Int32Array(this.lineCount + 1);
      for (let i = 0; i < this.lineCount; i++) prefix[i + 1] = (prefix[i] ?? 0) + (/\S/.test(this.line(i)) ? 1 : 0);
      this.nonBlankPrefix = prefix;
    }
    return (this.nonBlankPrefix[last + 1] ?? 0) - (this.nonBlankPrefix[first] ?? 0);
  }

  /**
   * Line indices (0-based, ascending) of every line whose trimmed text equals `key`. Found with indexOf over
   * the whole text (no per-line work for lines that do not contain `key`), cached per key.
   */
  linesWithTrimmed(key: string): readonly number[] {
    const cached = this.byTrimmed.get(key);
    if (cached) return cached;
    const out: number[] = [];
    if (key.length === 0) {
      for (let i = 0; i < this.lineCount; i++) if (this.trimmedLine(i).length === 0) out.push(i);
    } else {
      for (const i of this.linesContaining(key)) if (this.trimmedLine(i) === key) out.push(i);
    }
    this.byTrimmed.set(key, out);
    return out;
  }

  /**
   * Distinct line indices (ascending) of lines containing `fragment` (no line break inside), at most `limit`.
   * Complete answers (no limit) are cached per fragment: several rungs look for the same anchor.
   */
  linesContaining(fragment: string, limit = Infinity): number[] {
    if (limit === Infinity) {
      const known = this.containing.get(fragment);
      if (known) return known;
      const all = this.scanContaining(fragment, limit);
      this.containing.set(fragment, all);
      return all;
    }
    return this.scanContaining(fragment, limit);
  }

  private scanContaining(fragment: string, limit: number): number[] {
    const out: number[] = [];
    if (fragment.length === 0) return out;
    for (let at = this.text.indexOf(fragment); at !== -1 && out.length < limit;) {
      const i = this.lineOf(at);
      out.push(i);
      const next = this.lineStarts[i + 1];
      if (next === undefined) break;
      at = this.text.indexOf(fragment, next);
    }
    return out;
  }

  /** Offset just past the last character of line `i` (before its line break). */
  lineEnd(i: number): number {
    const starts = this.lineStarts;
    const next = starts[i + 1];
    return next === undefined ? this.text.length : next - 1;
  }

  /** 0-based line index containing `offset` (binary search over line starts: the last start ≤ offset). */
  lineOf(offset: number): number {
    return Math.max(0, upperBound(this.lineStarts, offset) - 1);
  }
}

/** Split a string into lines on LF; a final line break is dropped first (so 'a\n' → ['a']). */
export function splitBlock(s: string): { lines: string[]; endsWithNewline: boolean } {
  const endsWithNewline = s.endsWith('\n');
  const body = endsWithNewline ? s.slice(0, -1) : s;
  return { lines: body.split('\n'), endsWithNewline };
}

/** Leading whitespace (spaces and tabs) of a line. */
export function indentOf(line: string): string {
  const m = /^[ \t]*/.exec(line);
  return m ? m[0] : '';
}

/** True for letters, digits and underscore in any script: the characters a word or number token is made of. */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 0x80) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return /[\p{L}\p{N}_]/u.test(ch);
}

/** Every start offset of `needle` in `hay`, overlapping ones included ('aa' in 'aaa' → 0, 1). */
export function allIndexesOf(hay: string, needle: string, limit = Infinity): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  let at = hay.indexOf(needle);
  while (at !== -1 && out.length < limit) {
    out.push(at);
    at = hay.indexOf(needle, at + 1);
  }
  return out;
}
