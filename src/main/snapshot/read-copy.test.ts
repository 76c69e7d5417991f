/**
 * `readFile` returns a copy the caller owns: the pack reader keeps objects it read (likely delta bases), so
 * handing out that buffer would let a caller's edit change later reads, a restore writing the file, and every
 * delta built on it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';
import { cleanup, tempDir } from './test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

describe('readFile gives the caller its own bytes', () => {
  it('editing what readFile returned changes neither later reads, deltas on it, nor a restore', async () => {
    const root = tempDir('readcopy');
    dirs.push(root);
    const wt = join(root, 'wt');
    mkdirSync(join(wt, 'lib'), { recursive: true });
    const text = Array.from({ length: 200 }, (_, i) => `export const value${i} = ${i * 7};`).join('\n');
    writeFileSync(join(wt, 'lib/a.js'), text);
    writeFileSync(join(wt, 'lib/a.mjs'), `${text}\n// twin`); // stored as a delta against lib/a.js
    const store = await SnapshotStore.open({
      worktree: wt,
      dataDir: join(root, 'data'),
      ignoreDefaults: [],
      log: () => {},
    });
    try {
      const tree = await store.track(); // first track: one pack, read through the pack reader's cache
      const got = (await store.readFile(tree, 'lib/a.js')) as Uint8Array;
      expect(Buffer.from(got).toString()).toBe(text);
      got.fill(0x58);
      expect(Buffer.from((await store.readFile(tree, 'lib/a.js')) ?? []).toString()).toBe(text);
      expect(Buffer.from((await store.readFile(tree, 'lib/a.mjs')) ?? []).toString()).toBe(`${text}\n// twin`);
      rmSync(join(wt, 'lib'), { recursive: true });
      await store.restore(tree);
      expect(readFileSync(join(wt, 'lib/a.js'), 'utf8')).toBe(text);
      expect(readFileSync(join(wt, 'lib/a.mjs'), 'utf8')).toBe(`${text}\n// twin`);
    } finally {
      await store.close();
    }
  });
});
