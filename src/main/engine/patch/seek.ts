/**
 * Locating anchors and hunks in a file's lines (pure). For each pass of the ladder (passes/) the file is indexed
 * lazily: every line's key, and for every key the sorted line numbers where it occurs. Finding a hunk's old lines
 * then costs the occurrences of its rarest line, not a scan of the file, which keeps a 200-hunk patch over a
 * 50,000-line file in milliseconds.
 *
 * Rules (conformance README policy 5):
 *   - an anchor binds to its first match at or after the cursor, at the first pass that finds one;
 *   - a block (a hunk's old lines) is judged at the first pass that matches it anywhere in [cursor, end): exactly
 *     one start position → found; more → `ambiguous` (the engine never takes "probably the first");
 *   - an End-of-File block is tried only at the last possible position, so it is never ambiguous.
 * Positions are 0-based line indexes here; messages add 1.
 */
import { lowerBound } from '../text/binary-search';
import { PASSES } from './passes';
import type { Pass, PassName } from './types';

interface PassIndex {
  keys: string[];
  where: Map<string, number[]>;
}

/**
 * The lines of one file, indexed per pass on first use. Only the lines the patch can ask about (`wanted`: the
 * anchors and old lines of its hunks) get a position list — one Set probe per file line instead of a list per
 * distinct line, which is what keeps indexing a 50,000-line file cheap.
 */
export class LineIndex {
  private readonly byPass = new Map<PassName, PassIndex>();
  constructor(
    readonly lines: readonly string[],
    private readonly wanted: readonly string[],
  ) {}

  /** Keys of every line under `pass`, and the sorted positions of each wanted key. */
  index(pass: Pass): PassIndex {
    let found = this.byPass.get(pass.name);
    if (!found) {
      const keys = pass.name === 'exact' ? (this.lines as string[]) : this.lines.map(pass.key);
      const wanted = new Set(this.wanted.map(pass.key));
      const where = new Map<string, number[]>();
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        if (!wanted.has(k)) continue;
        const list = where.get(k);
        if (list) list.push(i);
        else where.set(k, [i]);
      }
      found = { keys, where };
      this.byPass.set(pass.name, found);
    }
    return found;
  }
}

/** Where an anchor line landed: its line index and the pass that found it. */
export interface AnchorHit {
  line: number;
  pass: PassName;
}

/** First line at or after `from` matching `anchor`, at the first pass with any such line; undefined if none. */
export function seekAnchor(file: LineIndex, anchor: string, from: number): AnchorHit | undefined {
  for (const pass of PASSES) {
    const list = file.index(pass).where.get(pass.key(anchor));
    if (!list) continue;
    const at = lowerBound(list, from);
    if (at < list.length) return { line: list[at] as number, pass: pass.name };
  }
  return undefined;
}

export type BlockHit =
  | { kind: 'found'; start: number; pass: PassName }
  | { kind: 'ambiguous'; starts: number[]; pass: PassName }
  | { kind: 'none' };

function matchesAt(keys: readonly string[], wanted: readonly string[], start: number): boolean {
  for (let j = 0; j < wanted.length; j++) if (keys[start + j] !== wanted[j]) return false;
  return true;
}

/** Every start in [from, n - len] where `wanted` (keys) matches under one pass. */
function startsUnder(idx: PassIndex, wanted: readonly string[], from: number): number[] {
  const last = idx.keys.length - wanted.length;
  let rare: number[] | undefined;
  let offset = 0;
  for (let j = 0; j < wanted.length; j++) {
    const list = idx.where.get(wanted[j] as string);
    if (!list) return [];
    if (!rare || list.length < rare.length) {
      rare = list;
      offset = j;
    }
  }
  const starts: number[] = [];
  if (!rare) return starts;
  for (let at = lowerBound(rare, from + offset); at < rare.length; at++) {
    const start = (rare[at] as number) - offset;
    if (start > last) break;
    if (matchesAt(idx.keys, wanted, start)) starts.push(start);
  }
  return starts;
}

/**
 * Locate `block` (a hunk's old lines, non-empty) at or after line `from`. With `endOfFile`, only the position
 * that ends at the file's last line is tried. See the module docstring for the ambiguity rule.
 */
export function seekBlock(file: LineIndex, block: readonly string[], from: number, endOfFile: boolean): BlockHit {
  const n = file.lines.length;
  if (block.length === 0 || block.length > n - from) return { kind: 'none' };
  for (const pass of PASSES) {
    const idx = file.index(pass);
    const wanted = block.map(pass.key);
    if (endOfFile) {
      if (matchesAt(idx.keys, wanted, n - block.length))
        return { kind: 'found', start: n - block.length, pass: pass.name };
      continue;
    }
    const starts = startsUnder(idx, wanted, from);
    if (starts.length === 1) return { kind: 'found', start: starts[0] as number, pass: pass.name };
    if (starts.length > 1) return { kind: 'ambiguous', starts, pass: pass.name };
  }
  return { kind: 'none' };
}
