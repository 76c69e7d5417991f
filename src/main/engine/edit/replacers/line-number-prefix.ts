/**
 * Rung 11 (Landfall), line-number-prefix: oldString was copied from the read tool's output with its line numbers
 * (`12: text`, `12→text`, `    12\ttext`, legacy `00012| text`). Every line must carry a prefix, the numbers
 * must count up by one, and the text after the prefixes must stand at exactly those line numbers of the file
 * (exact, or equal after trimming). No search happens anywhere else: numbers that are not the real line numbers
 * (a stale read) find nothing (conformance policy 5). The candidate carries the `line_prefix` distortion so the
 * loop cuts the same prefixes from newString when it has them.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { lineWindow } from './shared';

const PREFIX = /^ *(\d+)(?:: |:$|→|\t|\| |\|$)/;

/** Cut read-tool prefixes from every line; undefined unless every line has one and the numbers count up by one. */
export function stripLinePrefixes(lines: readonly string[]): { first: number; lines: string[] } | undefined {
  const out: string[] = [];
  let first = -1;
  for (const [k, line] of lines.entries()) {
    const m = PREFIX.exec(line);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (k === 0) first = n;
    else if (n !== first + k) return undefined;
    out.push(line.slice(m[0].length));
  }
  return first >= 1 ? { first, lines: out } : undefined;
}

function find(ctx: SearchContext): Candidate[] {
  const stripped = stripLinePrefixes(ctx.oldLines);
  if (!stripped) return [];
  const at = stripped.first - 1;
  const n = stripped.lines.length;
  if (at + n > ctx.text.lineCount) return [];
  for (let k = 0; k < n; k++) {
    const want = stripped.lines[k] ?? '';
    const have = ctx.text.line(at + k);
    if (want !== have && want.trim() !== have.trim()) return [];
  }
  return [
    lineWindow(ctx, at, n, 'line-number-prefix', {
      matched: stripped.lines.join('\n'),
      distortions: [{ kind: 'line_prefix' }],
    }),
  ];
}

export const lineNumberPrefix: Replacer = { name: 'line-number-prefix', kind: 'cosmetic', find };
