/**
 * Rung 6, escape-normalized: oldString was over-escaped (a tool call encoded twice: `\n`, `\t`, `\"`, `\\` as two
 * characters). Unescape it and look for exact occurrences; when there are none, for whole-line windows equal
 * after trimming (over-escaping often comes with lost indentation). The candidate carries the `escape`
 * distortion: the loop unescapes newString too when newString shows the same over-escaping (conformance policy 2,
 * see `sameEscaping`), and writes it verbatim when it is clean.
 */
import type { Candidate, Replacer, SearchContext } from '../types';
import { toLf } from '../../text/lines';
import { splitBlock } from '../text';
import { exactCandidates, lineWindow, trimmedAt, windowEquals } from './shared';

const ESCAPE = /\\(u[0-9a-fA-F]{4}|n|t|r|"|'|`|\\|\$)/g;
const REAL: Record<string, string> = { n: '\n', t: '\t', r: '\r' };

/** Turn escape sequences (`\n`, `\"`, `\u2019`, …) into the characters they stand for; CRLF comes out as LF. */
export function unescapeText(s: string): string {
  const plain = s.replace(ESCAPE, (_m, c: string) =>
    c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : (REAL[c] ?? c),
  );
  return toLf(plain);
}

/** True when `s` holds at least one escape sequence this rung undoes. */
export function hasEscapes(s: string): boolean {
  return /\\(u[0-9a-fA-F]{4}|n|t|r|"|'|`|\\|\$)/.test(s);
}

const KINDS: { escaped: string; raw: RegExp }[] = [
  { escaped: '\\u', raw: /[^ -~\s]/ },
  { escaped: '\\n', raw: /\n/ },
  { escaped: '\\t', raw: /\t/ },
  { escaped: '\\"', raw: /(^|[^\\])"/ },
  { escaped: "\\'", raw: /(^|[^\\])'/ },
];

/**
 * True when newString is over-escaped the way oldString was: it uses at least one of oldString's escape kinds
 * and never the raw character of any of them (a newString with real line breaks, or with bare quotes where
 * oldString had `\"`, is clean and must be written verbatim — its backslashes are real).
 */
export function sameEscaping(oldString: string, newString: string): boolean {
  const used = KINDS.filter((k) => oldString.includes(k.escaped));
  return used.some((k) => newString.includes(k.escaped)) && used.every((k) => !k.raw.test(newString));
}

function* find(ctx: SearchContext): Generator<Candidate> {
  if (!hasEscapes(ctx.old)) return;
  const plain = unescapeText(ctx.old);
  const exact = exactCandidates(ctx, plain, 'escape-normalized', [{ kind: 'escape' }]);
  if (exact.length > 0) {
    yield* exact;
    return;
  }
  const keys = splitBlock(plain).lines.map((l) => l.trim());
  if (keys.length < 2 || keys.every((k) => k.length === 0)) return;
  for (const i of ctx.text.linesWithTrimmed(keys[0] ?? '')) {
    if (ctx.budget.exhausted) return;
    if (windowEquals(ctx, i, keys, trimmedAt(ctx))) {
      yield lineWindow(ctx, i, keys.length, 'escape-normalized', {
        matched: splitBlock(plain).lines.join('\n'),
        distortions: [{ kind: 'escape' }],
      });
    }
  }
}

export const escapeNormalized: Replacer = { name: 'escape-normalized', kind: 'cosmetic', find };
