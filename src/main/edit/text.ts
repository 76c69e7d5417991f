/**
 * Line index over a text: line starts, lines, trimmed lines and a trimmed-line lookup, each built on first use.
 *
 * Why lazy: the exact rung needs none of it, and an exact edit in a 20k-line file must stay a single indexOf.
 * Lines are split on LF only (the engine works on LF-normalised text); offsets are UTF-16 indices.
 */

/** Lazily built line structures of one text. */
export class TextIndex {
  readonly text: string;
  private starts?: number[];
  private lineList?: string[];
  private trimmedList?: string[];
  private byTrimmed?: Map<string, number[]>;

  constructor(text: string) {
    this.text = text;
  }

  /** Offset of the first character of every line (0-based line index → offset). */
  get lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      let at = this.text.indexOf('\n');
      while (at !== -1) {
        starts.push(at + 1);
        at = this.text.indexOf('\n', at + 1);
      }
      this.starts = starts;
    }
    return this.starts;
  }

  /** The lines, without their line breaks. A final line break yields a last empty line. */
  get lines(): string[] {
    this.lineList ??= this.text.split('\n');
    return this.lineList;
  }

  /** Each line with leading and trailing whitespace removed. */
  get trimmed(): string[] {
    this.trimmedList ??= this.lines.map((l) => l.trim());
    return this.trimmedList;
  }

  /** Line indices (0-based, ascending) of every line whose trimmed text equals `key`. */
  linesWithTrimmed(key: string): readonly number[] {
    if (!this.byTrimmed) {
      const map = new Map<string, number[]>();
      this.trimmed.forEach((t, i) => {
        const list = map.get(t);
        if (list) list.push(i);
        else map.set(t, [i]);
      });
      this.byTrimmed = map;
    }
    return this.byTrimmed.get(key) ?? [];
  }

  /** Offset just past the last character of line `i` (before its line break). */
  lineEnd(i: number): number {
    const starts = this.lineStarts;
    const next = starts[i + 1];
    return next === undefined ? this.text.length : next - 1;
  }

  /** 0-based line index containing `offset` (binary search over line starts). */
  lineOf(offset: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
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
  return ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
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
