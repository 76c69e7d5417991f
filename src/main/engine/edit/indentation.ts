/**
 * Inverse distortion for indentation (DESIGN §2; conformance policy 2; fixtures/bugs/README.md B01, B02).
 *
 * Given the oldString lines a rung matched and the file lines they landed on, decide whether the model wrote its
 * block in a shifted or re-styled frame (dedented by 4, 2 spaces per level where the file has 4, spaces where the
 * file has tabs) and, if newString was written in that same frame, move newString into the file's frame.
 *
 * Algorithm: pair the non-blank lines of oldString with the non-blank lines of the span (same count or give up).
 * Measure every indent in columns (a tab = w columns; w is inferred from the pairs when old and file use
 * different indent characters, trying 4, 2, 8, 3). The pairs give a per-level mapping old column → file column;
 * it is consistent when one old column always meets the same file column and deeper stays deeper. Which frame
 * newString is written in is voted by its lines that oldString also has (same text once trimmed): such a line
 * indented as in oldString and not as in the file votes "old frame", the reverse votes "file frame"; with no vote,
 * newString's smallest indent decides (the file's smallest: file frame; oldString's: old frame). newString is then
 * - left verbatim in the file's frame, or when the mapping is the identity (nothing to rebase);
 * - rebased in oldString's frame: a line at a column some oldString line has gets exactly the indent string of
 *   the file line paired with it (unchanged lines come out byte-identical, mixed tab + space indentation is kept);
 *   a line at another column (an added, deeper line) gets the column the mapping extends to — linear in the
 *   level (model 2 per level ↔ file 4: column × 2), rendered in the file's style — when that column is a whole
 *   number of the file's steps (the gcd of the span's level distances);
 * - refused (`conflict`) when newString is in oldString's frame but the mapping is inconsistent, cannot place a
 *   line of newString, or newString's own lines vote for both frames: writing it would mix two indentations.
 */
import { indentOf } from './text';

type Style = 'tab' | 'space' | 'none';

function styleOf(indents: readonly string[]): Style {
  if (indents.some((i) => i.includes('\t'))) return 'tab';
  if (indents.some((i) => i.length > 0)) return 'space';
  return 'none';
}

function columns(indent: string, w: number): number {
  let col = 0;
  for (const ch of indent) col += ch === '\t' ? w - (col % w) : 1;
  return col;
}

function compatible(a: Style, b: Style): boolean {
  return a === b || a === 'none' || b === 'none';
}

/** Old column → file indent string of the first pair at that column; undefined when not consistent (see doc). */
function levelMap(oldIndents: string[], fileIndents: string[], w: number): Map<number, string> | undefined {
  const map = new Map<number, string>();
  for (let k = 0; k < oldIndents.length; k++) {
    const col = columns(oldIndents[k] ?? '', w);
    const file = fileIndents[k] ?? '';
    const seen = map.get(col);
    if (seen === undefined) map.set(col, file);
    else if (columns(seen, w) !== columns(file, w)) return undefined;
  }
  const levels = [...map.entries()].map(([o, f]) => [o, columns(f, w)] as const).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < levels.length; i++) if ((levels[i]?.[1] ?? 0) <= (levels[i - 1]?.[1] ?? 0)) return undefined;
  return map;
}

/** The mapping as a line through its levels (file = base + (old − first) × scale), when every level is on it. */
function linearOf(map: Map<number, string>, w: number): ((col: number) => number | undefined) | undefined {
  const levels = [...map.entries()].map(([o, f]) => [o, columns(f, w)] as const).sort((a, b) => a[0] - b[0]);
  const [o0, f0] = levels[0] ?? [0, 0];
  const [o1, f1] = levels[1] ?? [o0 + 1, f0 + 1];
  const scale = (f1 - f0) / (o1 - o0);
  if (levels.some(([o, f]) => f0 + (o - o0) * scale !== f)) return undefined;
  // with two levels or more the file's step is known: a column between its steps is no level of the file
  const step = levels.length > 1 ? levels.reduce((g, [, f]) => gcd(g, f - f0), 0) : 1;
  return (col) => {
    const v = f0 + (col - o0) * scale;
    return Number.isInteger(v) && v >= 0 && (v - f0) % step === 0 ? v : undefined;
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? Math.abs(a) : gcd(b, a % b);
}

function render(col: number, style: Style, w: number): string {
  const c = Math.max(0, col);
  return style === 'tab' ? '\t'.repeat(Math.floor(c / w)) + ' '.repeat(c % w) : ' '.repeat(c);
}

const nonBlank = (s: string): string[] => s.split('\n').filter((l) => l.trim().length > 0);

/** The consistent mapping at the first tab width that has one (a uniform shift preferred), with that width. */
function mappingOf(oldIndents: string[], fileIndents: string[]): { map: Map<number, string>; w: number } | undefined {
  const widths = styleOf(oldIndents) === styleOf(fileIndents) ? [4] : [4, 2, 8, 3];
  let found: { map: Map<number, string>; w: number } | undefined;
  for (const w of widths) {
    const map = levelMap(oldIndents, fileIndents, w);
    if (!map) continue;
    const deltas = new Set([...map.entries()].map(([o, f]) => columns(f, w) - o));
    if (deltas.size === 1) return { map, w };
    found ??= { map, w };
  }
  return found;
}

/** 'old' | 'file': the frame newString's lines are written in (see module doc); 'both' when they disagree. */
function frameOf(oldLines: string[], fileLines: string[], newLines: string[], w: number): 'old' | 'file' | 'both' {
  const used = new Set<number>();
  let old = 0;
  let file = 0;
  for (const line of newLines) {
    const k = oldLines.findIndex((o, i) => !used.has(i) && o.trim() === line.trim());
    if (k === -1) continue;
    used.add(k);
    const [oi, fi, ni] = [indentOf(oldLines[k] ?? ''), indentOf(fileLines[k] ?? ''), indentOf(line)];
    if (ni === oi && ni !== fi) old++;
    else if (ni === fi && ni !== oi) file++;
  }
  if (old > 0 || file > 0) return old > 0 && file > 0 ? 'both' : old > 0 ? 'old' : 'file';
  const minCol = (ls: string[]): number => Math.min(...ls.map((l) => columns(indentOf(l), w)));
  const [oldStyle, fileStyle, newStyle] = [oldLines, fileLines, newLines].map((ls) => styleOf(ls.map(indentOf)));
  const newMin = minCol(newLines);
  if (compatible(newStyle ?? 'none', fileStyle ?? 'none') && newMin === minCol(fileLines)) return 'file';
  return compatible(newStyle ?? 'none', oldStyle ?? 'none') && newMin === minCol(oldLines) ? 'old' : 'file';
}

/** What rebaseIndentation decided: the text to write and whether it changed, or a refusal (mixed indentation). */
export type Rebased = { text: string; changed: boolean; conflict?: undefined } | { conflict: string };

/**
 * Rebase `replacement` from oldString's indentation frame into the file's (see module doc).
 * `matched`: the oldString text the rung compared; `spanText`: the file text it landed on (whole lines).
 * Returns the replacement to write and whether it was changed, or `conflict` (why no single indentation fits).
 */
export function rebaseIndentation(matched: string, spanText: string, replacement: string): Rebased {
  const same = { text: replacement, changed: false };
  const oldLines = nonBlank(matched);
  const fileLines = nonBlank(spanText);
  const newLines = replacement.split('\n');
  const newNonBlank = newLines.filter((l) => l.trim().length > 0);
  if (oldLines.length === 0 || oldLines.length !== fileLines.length || newNonBlank.length === 0) return same;
  const oldIndents = oldLines.map(indentOf);
  const fileIndents = fileLines.map(indentOf);
  if (oldIndents.every((o, k) => o === fileIndents[k])) return same;
  const mapping = mappingOf(oldIndents, fileIndents);
  const frame = frameOf(oldLines, fileLines, newNonBlank, mapping?.w ?? 4);
  if (frame === 'file') return same;
  if (frame === 'both') return { conflict: "newString's lines follow both oldString's and the file's indentation" };
  if (!mapping) return { conflict: "oldString's indentation levels do not map onto the file's one to one" };
  const { map, w } = mapping;
  const fileStyle = styleOf(fileIndents);
  const target: Style = fileStyle === 'none' ? 'space' : fileStyle;
  const extend = linearOf(map, w);
  const out: string[] = [];
  for (const line of newLines) {
    if (line.trim().length === 0) {
      out.push(line);
      continue;
    }
    const indent = indentOf(line);
    const col = columns(indent, w);
    const known = map.get(col);
    const extended = known === undefined ? extend?.(col) : undefined;
    if (known === undefined && extended === undefined) {
      return { conflict: `a line of newString sits at column ${col}, which the file's indentation levels do not give` };
    }
    out.push((known ?? render(extended ?? 0, target, w)) + line.slice(indent.length));
  }
  const text = out.join('\n');
  return { text, changed: text !== replacement };
}
