/**
 * Inverse distortion for indentation (DESIGN §2; conformance policy 2; fixtures/bugs/README.md B01, B02).
 *
 * Given the oldString lines a rung matched and the file lines they landed on, decide whether the model wrote its
 * block in a shifted or re-styled frame (dedented by 4, spaces where the file has tabs) and, if newString was
 * written in that same frame, move newString into the file's frame.
 *
 * Algorithm: pair the non-blank lines of oldString with the non-blank lines of the span (same count or give up).
 * Measure every indent in columns (a tab = w columns; w is inferred from the pairs when old and file use
 * different indent characters, trying 4, 2, 8, 3). When every pair has the same column delta, the distortion is
 * uniform. newString is then
 * - left verbatim when it already sits in the file's frame (same indent style, same smallest indent), or when the
 *   distortion is not uniform (the model fixed indentation line by line: its newString is what it wants);
 * - rebased when it sits in oldString's frame: each non-blank line gets delta columns, rendered in the file's style
 *   — or, at a column some oldString line has, exactly the indent string of the file line paired with it (so mixed
 *   tab + space indentation is kept as the file writes it).
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

/** The common column delta file − old over all pairs at tab width w, or undefined when it is not uniform. */
function uniformDelta(oldIndents: string[], fileIndents: string[], w: number): number | undefined {
  let delta: number | undefined;
  for (let k = 0; k < oldIndents.length; k++) {
    const d = columns(fileIndents[k] ?? '', w) - columns(oldIndents[k] ?? '', w);
    if (delta === undefined) delta = d;
    else if (d !== delta) return undefined;
  }
  return delta;
}

function render(col: number, style: Style, w: number): string {
  const c = Math.max(0, col);
  return style === 'tab' ? '\t'.repeat(Math.floor(c / w)) + ' '.repeat(c % w) : ' '.repeat(c);
}

const nonBlank = (s: string): string[] => s.split('\n').filter((l) => l.trim().length > 0);

/**
 * Rebase `replacement` from oldString's indentation frame into the file's (see module doc).
 * `matched`: the oldString text the rung compared; `spanText`: the file text it landed on (whole lines).
 * Returns the replacement to write and whether it was changed.
 */
export function rebaseIndentation(
  matched: string,
  spanText: string,
  replacement: string,
): { text: string; changed: boolean } {
  const same = { text: replacement, changed: false };
  const oldIndents = nonBlank(matched).map(indentOf);
  const fileIndents = nonBlank(spanText).map(indentOf);
  if (oldIndents.length === 0 || oldIndents.length !== fileIndents.length) return same;
  const oldStyle = styleOf(oldIndents);
  const fileStyle = styleOf(fileIndents);
  const widths = oldStyle === fileStyle ? [4] : [4, 2, 8, 3];
  let w = 4;
  let delta: number | undefined;
  for (const candidate of widths) {
    delta = uniformDelta(oldIndents, fileIndents, candidate);
    if (delta !== undefined) {
      w = candidate;
      break;
    }
  }
  if (delta === undefined) return same;
  const styleDiffers = !compatible(oldStyle, fileStyle);
  if (delta === 0 && !styleDiffers) return same;
  const newLines = replacement.split('\n');
  const newIndents = newLines.filter((l) => l.trim().length > 0).map(indentOf);
  if (newIndents.length === 0) return same;
  const newStyle = styleOf(newIndents);
  const minCol = (xs: string[]): number => Math.min(...xs.map((i) => columns(i, w)));
  const newMin = minCol(newIndents);
  if (compatible(newStyle, fileStyle) && newMin === minCol(fileIndents)) return same;
  if (!compatible(newStyle, oldStyle) || newMin !== minCol(oldIndents)) return same;
  const target: Style = fileStyle === 'none' ? 'space' : fileStyle;
  // a column the file already writes (paired with an old line at that column) keeps the file's exact string,
  // so tabs-for-indent + spaces-for-alignment ("\t    ") survive instead of being re-rendered as tabs
  const fileIndentAt = new Map<number, string>();
  oldIndents.forEach((indent, k) => {
    const col = columns(indent, w);
    if (!fileIndentAt.has(col)) fileIndentAt.set(col, fileIndents[k] ?? '');
  });
  const text = newLines
    .map((line) => {
      if (line.trim().length === 0) return line;
      const indent = indentOf(line);
      const col = columns(indent, w);
      return (fileIndentAt.get(col) ?? render(col + delta, target, w)) + line.slice(indent.length);
    })
    .join('\n');
  return { text, changed: text !== replacement };
}
