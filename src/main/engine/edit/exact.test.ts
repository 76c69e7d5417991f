/**
 * The lean paths decide exactly as the general loop (differential property tests):
 * - exact.ts exactPlan lands where the simple rung's places, judged by judge.ts and the uniqueness gate, land
 *   (same pieces; replaceAll: the same non-overlapping fits), or defers to it (always safe: the general loop
 *   then decides) — it never lands where the general loop would not;
 * - replace() on the raw text (line-endings.ts RawLineView, one-line oldString) gives the same bytes and spans as
 *   the LF view applyEdits works on, in LF, CRLF, mixed and BOM files.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { exactPlan } from './exact';
import { judge } from './judge';
import { makeContext, distinctPlaces } from './search';
import { simple } from './replacers/simple';
import { TextIndex } from './text';
import { applyEdits, replace } from './index';

const unit = fc.constantFrom('a', 'b', '_', ' ', '  ', '\t', '\n', '(', ')', ';', '\u00e9', 'e\u0301', '.');
const text = fc.array(unit, { maxLength: 40 }).map((xs) => xs.join(''));
const counts = { plans: 0, deferred: 0, views: 0 };
afterAll(() => {
  process.stdout.write(
    `\nlean exact path vs general loop: ${counts.plans} cases agreed (${counts.deferred} deferred to it); raw vs LF view: ${counts.views}\n`,
  );
});

/** What the general loop lands for the simple rung: the pieces, or undefined when it would not land there. */
function generalSimple(content: string, old: string, replacement: string, replaceAll: boolean) {
  const ctx = makeContext(new TextIndex(content), old);
  const j = judge(ctx, distinctPlaces(simple.find(ctx)), old, replacement, 'exact');
  if (j.fits.length === 0 || (!replaceAll && j.fits.length > 1)) return undefined;
  const chosen: number[] = [];
  let reach = -1;
  for (const f of j.fits) {
    if (replaceAll && f.candidate.start < reach) continue;
    // a fit widened to its line start is rebased by the general loop: the lean path must not take it
    if (f.candidate.lineAligned) return 'widened';
    chosen.push(f.candidate.start);
    reach = Math.max(f.replacement.end, f.candidate.start + 1);
  }
  return chosen;
}

describe('lean paths agree with the general loop', () => {
  it('exactPlan lands where the simple rung would, and nowhere else', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, fc.boolean(), (content, a, b, replacement, replaceAll) => {
        fc.pre(content.length > 0);
        const start = a % content.length;
        const old = content.slice(start, start + 1 + (b % 6));
        fc.pre(old.length > 0 && old !== replacement);
        const lean = exactPlan(content, old, replacement, replaceAll);
        const general = generalSimple(content, old, replacement, replaceAll);
        // deferring is always safe (the general loop then decides); a landing must be the general loop's
        if (lean === 'absent') expect(content.includes(old)).toBe(false);
        else if (lean !== undefined) expect(lean.repeat?.starts).toEqual(general);
        if (lean === undefined) counts.deferred++;
        counts.plans++;
      }),
      { numRuns: 2000 },
    );
  });

  it('replace on the raw text equals the LF view, bytes and spans', () => {
    const eol = fc.constantFrom('\n', '\r\n');
    const lines = fc.array(
      fc.tuple(
        text.map((t) => t.replace(/\n/g, '')),
        eol,
      ),
      { minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(lines, fc.boolean(), fc.nat(), fc.nat(), text, fc.boolean(), (ls, bom, a, b, rep, all) => {
        const content = (bom ? '\uFEFF' : '') + ls.map(([l, e]) => l + e).join('');
        const body = content.replace(/^\uFEFF/, '');
        fc.pre(body.length > 0);
        const start = a % body.length;
        const old = body.slice(start, start + 1 + (b % 5));
        fc.pre(old.trim().length > 0 && !/[\r\n]/.test(old));
        const raw = replace(content, old, rep, { replaceAll: all });
        const lf = applyEdits(content, [{ oldString: old, newString: rep, replaceAll: all }]);
        if (!raw.ok || !lf.ok) {
          expect(raw.ok ? 'ok' : raw.error.code).toBe(lf.ok ? 'ok' : lf.error.code);
        } else {
          expect(raw.value.content).toBe(lf.value.content);
          expect(raw.value.spans).toEqual(lf.value.edits[0]?.spans);
        }
        counts.views++;
      }),
      { numRuns: 1500 },
    );
  });
});
