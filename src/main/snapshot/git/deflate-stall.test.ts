/**
 * The deflate helper and the pack writer that uses it, when the helper goes away:
 * - a ticket whose body was posted to a helper that `close()` ended, taken after a later submit started a new
 *   helper, is compressed inline (it used to spin forever: the new helper's counts start at 0, so nothing was
 *   "outstanding" and nothing would ever answer);
 * - a helper that dies silently during a pack (its error event cannot fire while the walk runs synchronously)
 *   no longer lets every later entry pile up in memory until `finish`: the writer waits for the oldest body
 *   once PENDING_CAP bytes are queued, the stall gives the helper up, and the rest is compressed inline — every
 *   byte still lands in a pack git accepts.
 * This file kills the thread's shared helper in its last test: keep it in its own file.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { Deflater, sharedDeflater } from './deflate-helper';
import { hashObject } from './object-id';
import { PackFile } from './pack-index';
import { PackWriter, PENDING_CAP } from './pack-writer';
import { cleanup, hasGit, tempDir } from '../test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

/** Text-like bytes that deflate quickly: `n` bytes, distinct per `seed`. */
function body(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  const noise = randomBytes(Math.ceil(n / 16));
  for (let k = 0; k < n; k++) b[k] = k % 16 === 0 ? (noise[k >> 4] as number) : 97 + ((k + seed) % 7);
  return b;
}

describe('deflate helper and pack writer under a lost helper', () => {
  it('a body posted to a helper that close() ended is still given back after a new helper started', () => {
    const d = new Deflater(300);
    try {
      const a = body(200_000, 1);
      const b = body(200_000, 2);
      const ta = d.submit(a, 6); // a full batch: posted to the first helper
      d.close();
      const tb = d.submit(b, 6); // starts a second helper
      expect(inflateSync(d.take(tb)).equals(b)).toBe(true);
      expect(inflateSync(d.take(ta)).equals(a)).toBe(true);
    } finally {
      d.close();
    }
  });

  it('a helper that dies mid-pack keeps at most PENDING_CAP bytes queued, and the pack is whole', async () => {
    const root = tempDir('stall');
    dirs.push(root);
    const packDir = join(root, 'objects', 'pack');
    mkdirSync(packDir, { recursive: true });
    (sharedDeflater as unknown as { stallMs: number }).stallMs = 300;
    const w = new PackWriter(packDir);
    const blobs: Buffer[] = [];
    const entry = 1 << 20;
    let most = 0;
    for (let i = 0; i < 24; i++) {
      const b = body(entry, i);
      blobs.push(b);
      w.add('blob', b, hashObject('blob', b));
      if (i === 0) await (sharedDeflater as unknown as { worker: Worker }).worker.terminate();
      most = Math.max(most, w.pendingBytes);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(PENDING_CAP + entry);
    const base = w.finish();
    const pack = new PackFile(base);
    try {
      expect(pack.size).toBe(blobs.length);
      for (const b of blobs) expect(pack.read(hashObject('blob', b))?.content.equals(b)).toBe(true);
    } finally {
      pack.close();
    }
    if (hasGit()) execFileSync('git', ['verify-pack', `${base}.idx`], { stdio: 'pipe' });
  });
});
