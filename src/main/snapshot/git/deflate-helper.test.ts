/**
 * The pack writer's deflate helper: every ticket gives back a zlib stream of exactly its bytes whatever the mix
 * of sizes and the order tickets are taken in, and a helper thread that dies mid-way costs time, never bytes.
 */
import { randomBytes } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES, Deflater } from './deflate-helper';

const made: Deflater[] = [];
/** Byte equality of big buffers (a deep toEqual walks them element by element, seconds for MBs). */
const same = (a: Buffer, b: Buffer | undefined): boolean => b !== undefined && a.equals(b);
afterEach(() => {
  for (const d of made.splice(0)) d.close();
});

/** Compressible bodies of many sizes: tiny, around a batch, and several MB. */
function bodies(): Buffer[] {
  const sizes = [0, 1, 100, 4000, BATCH_BYTES - 1, BATCH_BYTES, BATCH_BYTES * 3, 3 << 20, 17, 250_000];
  return sizes.map((n, i) => {
    const b = Buffer.alloc(n);
    const noise = randomBytes(Math.ceil(n / 8));
    for (let k = 0; k < n; k++) b[k] = k % 8 === 0 ? (noise[k >> 3] as number) : 97 + ((k + i) % 5);
    return b;
  });
}

describe('deflate helper', () => {
  it('gives back exactly each body, taken in any order, at the level asked', () => {
    const d = new Deflater();
    made.push(d);
    const input = bodies();
    const tickets = input.map((b, i) => d.submit(b, i % 2 === 0 ? 6 : 1));
    const order = tickets.map((_, i) => i).reverse();
    for (const i of order) expect(same(inflateSync(d.take(tickets[i] as number)), input[i]), `body ${i}`).toBe(true);
    expect(() => d.take(tickets[0] as number)).toThrow(/unknown or already taken/);
  });

  it('a helper thread that dies leaves every outstanding body compressed inline', async () => {
    const d = new Deflater(300);
    made.push(d);
    const input = bodies();
    const first = d.submit(input[7] as Buffer, 6); // boots the helper
    await (d as unknown as { worker: Worker }).worker.terminate();
    const tickets = [first, ...input.map((b) => d.submit(b, 6))];
    const expected = [input[7], ...input];
    for (const [i, t] of tickets.entries()) expect(same(inflateSync(d.take(t)), expected[i]), `body ${i}`).toBe(true);
  });

  it('forgotten tickets are dropped and later ones are unaffected', () => {
    const d = new Deflater();
    made.push(d);
    const input = bodies();
    const dropped = input.map((b) => d.submit(b, 4));
    d.forget(dropped);
    expect(() => d.take(dropped[3] as number)).toThrow(/unknown or already taken/);
    const kept = input.map((b) => d.submit(b, 4));
    for (const [i, t] of kept.entries()) expect(same(inflateSync(d.take(t)), input[i]), `body ${i}`).toBe(true);
  });
});
