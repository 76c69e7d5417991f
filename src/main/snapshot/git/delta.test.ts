/**
 * Git delta encoding (delta.ts): any delta the encoder emits rebuilds its target exactly from its base and
 * respects the size limit; malformed deltas are refused with DeltaError, never turned into wrong bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyDelta, BLOCK, DeltaError, encodeDelta, indexBase, looksSimilar } from './delta';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A target made from `base` by edits: copies of base ranges, fresh bytes, repeats. */
const edited = fc
  .tuple(
    fc.uint8Array({ minLength: 0, maxLength: 3000 }),
    fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('copy' as const), from: fc.nat(), len: fc.nat({ max: 800 }) }),
        fc.record({ kind: fc.constant('fresh' as const), data: fc.uint8Array({ maxLength: 200 }) }),
      ),
      { maxLength: 12 },
    ),
  )
  .map(([base, ops]) => {
    const parts: Uint8Array[] = [];
    for (const op of ops) {
      if (op.kind === 'fresh') parts.push(op.data);
      else if (base.length > 0) {
        const from = op.from % base.length;
        parts.push(base.subarray(from, Math.min(base.length, from + op.len)));
      }
    }
    return { base, target: Buffer.concat(parts) };
  });

describe('git delta encoding', () => {
  it('property: an emitted delta rebuilds the target byte for byte and never exceeds its limit', () => {
    fc.assert(
      fc.property(edited, fc.nat({ max: 5000 }), ({ base, target }, limit) => {
        const ix = indexBase(base);
        const unlimited = encodeDelta(ix, target, Number.MAX_SAFE_INTEGER);
        if (target.length < BLOCK) expect(unlimited).toBeUndefined();
        else expect(Buffer.from(applyDelta(base, unlimited as Uint8Array))).toEqual(Buffer.from(target));
        const limited = encodeDelta(ix, target, limit);
        if (limited) {
          expect(limited.length).toBeLessThanOrEqual(limit);
          expect(Buffer.from(applyDelta(base, limited))).toEqual(Buffer.from(target));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a small edit of a large text becomes a small delta; unrelated text finds no base', () => {
    const base = bytes(
      Array.from({ length: 400 }, (_, i) => `line ${i}: const value${i} = compute(${i * 7});\n`).join(''),
    );
    const target = Buffer.concat([base.subarray(0, 5000), bytes('// inserted line\n'), base.subarray(5040)]);
    const ix = indexBase(base);
    expect(looksSimilar(ix, target)).toBe(true);
    const d = encodeDelta(ix, target, target.length) as Uint8Array;
    expect(d.length).toBeLessThan(60);
    expect(applyDelta(base, d)).toEqual(target);
    const other = bytes(Array.from({ length: 400 }, (_, i) => `#${i} unrelated words here ${i * 13}\n`).join(''));
    expect(looksSimilar(ix, other)).toBe(false);
    expect(encodeDelta(ix, other, other.length / 2)).toBeUndefined();
  });

  it('applies deltas spelled per the format: multi-byte offsets, size 0 meaning 0x10000, inserts', () => {
    const base = Buffer.alloc(0x20000);
    for (let i = 0; i < base.length; i++) base[i] = (i * 31) & 0xff;
    // header: base size 0x20000 (varint 80 80 08), result size 0x10000 + 3 (varint 83 80 04)
    // copy: op 0x80 | offset bytes 0,1 (0x01 | 0x02) | no size bytes → offset 0x0102, size 0x10000
    // insert 3 bytes "abc"
    const delta = Buffer.from([0x80, 0x80, 0x08, 0x83, 0x80, 0x04, 0x83, 0x02, 0x01, 0x03, 0x61, 0x62, 0x63]);
    const out = applyDelta(base, delta);
    expect(out.subarray(0, 0x10000)).toEqual(base.subarray(0x0102, 0x0102 + 0x10000));
    expect(out.subarray(0x10000).toString()).toBe('abc');
  });

  it('refuses malformed deltas with DeltaError', () => {
    const base = bytes('0123456789abcdef0123456789abcdef');
    const good = encodeDelta(indexBase(base), bytes('0123456789abcdef!0123456789abcdef'), 1000) as Uint8Array;
    expect(applyDelta(base, good).toString()).toBe('0123456789abcdef!0123456789abcdef');
    const cases: [string, Uint8Array, Uint8Array][] = [
      ['base of another size', bytes('short'), good],
      ['truncated header', base, Buffer.from([0x80])],
      ['truncated body', base, good.subarray(0, good.length - 3)],
      ['reserved opcode 0', base, Buffer.from([32, 1, 0])],
      ['copy past the base', base, Buffer.from([32, 4, 0x91, 30, 4])],
      ['insert past the delta', base, Buffer.from([32, 5, 5, 0x61])],
      ['more bytes than the header says', base, Buffer.from([32, 1, 2, 0x61, 0x62])],
    ];
    for (const [what, b, d] of cases) expect(() => applyDelta(b, d), what).toThrow(DeltaError);
  });
});
