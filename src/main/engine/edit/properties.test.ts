/**
 * Property tests (fast-check) of the landing rules:
 * - an exact, unique, whole-token substring always lands exactly there (rung simple, offsets as given) — when it
 *   ends with a line break, where it starts a line;
 * - a region present twice never lands without replaceAll (ambiguous), and lands twice with it;
 * - a landed edit changes bytes only inside the reported span (CRLF, BOM and fuzzy rungs included);
 * - replace never throws, whatever the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replace } from './index';
import { cutsToken } from './gates';

const word = fc.stringMatching(/^[a-z0-9_]{1,6}$/);
const piece = fc.oneof(
  word,
  fc.constantFrom(' ', '  ', '\t', '\n', '(', ')', '{', '}', ';', '=', '"', '\u201c', '\u00e9', '.'),
);
const text = fc.array(piece, { maxLength: 60 }).map((xs) => xs.join(''));
const runs = { numRuns: 300 };

/** True when newString holds oldString and `content` holds newString around oldString's place `start`. */
function readsAsNew(content: string, start: number, old: string, replacement: string): boolean {
  for (let o = replacement.indexOf(old); o >= 0; o = replacement.indexOf(old, o + 1))
    if (start - o >= 0 && content.startsWith(replacement, start - o)) return true;
  return false;
}

describe('landing properties', () => {
  // "exactly": on its own bytes; the one widening allowed is to the line start when oldString begins with
  // whitespace inside the line's indentation (gates.ts alignToIndentation), where newString is rebased instead.
  it('an exact unique whole-token substring always lands exactly', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (content, a, b, replacement) => {
        fc.pre(content.length > 0);
        const start = a % content.length;
        const end = start + 1 + (b % (content.length - start));
        const old = content.slice(start, end);
        fc.pre(old.trim().length > 0 && replacement !== old);
        fc.pre(content.indexOf(old) === start && content.indexOf(old, start + 1) === -1);
        fc.pre(!cutsToken(content, start, end));
        // a line-shaped oldString (ending in a line break) lands only at a line start (properties-landings.test.ts)
        fc.pre(!old.endsWith('\n') || /(^|\n)[ \t]*$/.test(content.slice(0, start)));
        // the text already reads as newString where oldString stands (a retried append: already_applied, by design —
        // already-applied.ts readsAsNew, its own property in properties-indentation.test.ts): not an exact landing's case
        fc.pre(!readsAsNew(content, start, old, replacement));
        const r = replace(content, old, replacement);
        if (!r.ok) throw new Error(`${r.error.code}: ${JSON.stringify({ content, old, replacement })}`);
        expect(r.value.rung).toBe('simple');
        const lineStart = content.lastIndexOf('\n', start - 1) + 1;
        const insideIndent =
          /^[ \t]/.test(old) && start > lineStart && /^[ \t]*$/.test(content.slice(lineStart, start));
        expect([r.value.start, r.value.end]).toEqual([insideIndent ? lineStart : start, end]);
        if (!insideIndent) expect(r.value.content).toBe(content.slice(0, start) + replacement + content.slice(end));
      }),
      runs,
    );
  });

  it('a region present twice never lands without replaceAll', () => {
    fc.assert(
      fc.property(text, text, text, text, text, (before, block, middle, after, replacement) => {
        fc.pre(block.trim().length > 0 && replacement !== block);
        const content = `${before}\n${block}\n${middle}\n${block}\n${after}`;
        const r = replace(content, block, replacement);
        expect(r.ok ? 'landed' : r.error.code).toBe('ambiguous');
        const all = replace(content, block, replacement, { replaceAll: true });
        if (all.ok) expect(all.value.replacements).toBeGreaterThanOrEqual(2);
      }),
      runs,
    );
  });

  it('a landed edit changes bytes only inside the reported span', () => {
    const distortion = fc.constantFrom('none', 'indent', 'spaces', 'trim');
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.nat(),
        text,
        fc.boolean(),
        fc.boolean(),
        distortion,
        (body, a, b, replacement, crlf, bom, how) => {
          const lf = body;
          fc.pre(lf.length > 0);
          const start = a % lf.length;
          const end = start + 1 + (b % (lf.length - start));
          let old = lf.slice(start, end);
          if (how === 'indent')
            old = old
              .split('\n')
              .map((l) => `  ${l}`)
              .join('\n');
          if (how === 'spaces') old = old.replace(/ /g, '  ');
          if (how === 'trim') old = `\n${old.trim()}\n`;
          const content = (bom ? '\uFEFF' : '') + (crlf ? lf.replace(/\n/g, '\r\n') : lf);
          const r = replace(content, old, replacement);
          if (!r.ok) return;
          const { start: s, end: e, content: out } = r.value;
          expect(s).toBeLessThanOrEqual(e);
          expect(out.slice(0, s)).toBe(content.slice(0, s));
          expect(out.slice(out.length - (content.length - e))).toBe(content.slice(e));
          if (bom) expect(out.startsWith('\uFEFF') && !out.startsWith('\uFEFF\uFEFF')).toBe(true);
        },
      ),
      runs,
    );
  });

  it('replace never throws, whatever the input', () => {
    const anyText = fc.oneof(
      text,
      fc.string({ unit: 'grapheme-composite', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
    );
    fc.assert(
      fc.property(anyText, anyText, anyText, fc.boolean(), (content, old, replacement, replaceAll) => {
        const r = replace(content, old, replacement, { replaceAll });
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});
