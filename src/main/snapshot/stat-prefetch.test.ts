/**
 * The lstat helper thread (stat-prefetch.ts) on a real folder of PREFETCH_MIN+ files: what it hands the walk equals
 * lstat's numbers, a vanished file gives nothing, and a store whose tracks use it still gives the tree a fresh
 * store computes after same-size edits near the end of the walk (where the helper works).
 */
import { lstatSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SnapshotStore } from './index';
import { PREFETCH_MIN, StatPrefetcher } from './stat-prefetch';
import { cleanup, tempDir } from './test-support';

const COUNT = PREFETCH_MIN + 100;
let base = '';
let wt = '';
const rels: string[] = [];
const OLD = new Date('2020-01-02T03:04:05Z');

beforeAll(() => {
  base = tempDir('prefetch');
  wt = join(base, 'wt');
  for (let d = 0; d < 41; d++) mkdirSync(join(wt, `d${String(d).padStart(2, '0')}`), { recursive: true });
  for (let i = 0; i < COUNT; i++) {
    const rel = `d${String(i % 41).padStart(2, '0')}/f${i}.txt`;
    writeFileSync(join(wt, rel), `file ${i}\n`);
    utimesSync(join(wt, rel), OLD, OLD); // old mtimes: cache entries are not racy, so stat matches are used
    rels.push(rel);
  }
});
afterAll(() => cleanup(base));

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('stat prefetch', () => {
  it('hands over exactly what lstat gives, and nothing for a vanished file', async () => {
    const gone = rels[COUNT - 2] as string;
    const files = new Map(rels.map((r) => [r, 0]));
    files.set('d00/missing.txt', 0);
    const pf = new StatPrefetcher();
    try {
      const job = pf.start(wt, files);
      expect(job).toBeDefined();
      if (!job) return;
      await until(() => job.done() === files.size);
      expect(job.done()).toBe(files.size);
      for (const rel of rels) {
        const got = job.take(rel);
        if (rel === gone) continue;
        const st = lstatSync(join(wt, rel));
        expect(got).toEqual({ size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode });
      }
      expect(job.take('d00/missing.txt')).toBeUndefined();
      expect(job.take('not/listed.txt')).toBeUndefined();
      job.end();
    } finally {
      pf.close();
    }
    expect(pf.start(wt, new Map([['a', 0]]))).toBeUndefined(); // below PREFETCH_MIN: no thread
  });

  it('a job with the list the helper holds posts no list; a changed list is posted again; both hand over lstat', async () => {
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const pf = new StatPrefetcher();
    /** Runs one job over `files` to the end and checks every number it hands over against lstat. */
    const run = async (files: Map<string, number>): Promise<void> => {
      const job = pf.start(wt, files);
      if (!job) throw new Error('no helper thread');
      await until(() => job.done() === files.size);
      for (const rel of files.keys()) {
        const st = lstatSync(join(wt, rel));
        expect(job.take(rel)).toEqual({
          size: st.size,
          mtimeMs: st.mtimeMs,
          ctimeMs: st.ctimeMs,
          ino: st.ino,
          mode: st.mode,
        });
      }
      job.end();
    };
    try {
      const files = new Map(rels.map((r) => [r, 0]));
      await run(files);
      await run(files);
      const fewer = new Map(files);
      fewer.delete(rels[0] as string);
      await run(fewer);
      const sent = posted.mock.calls.map(([m]) => (m as { paths?: string[] }).paths?.length);
      expect(sent).toEqual([COUNT, undefined, COUNT - 1]);
    } finally {
      posted.mockRestore();
      pf.close();
    }
  });

  it('tracks with the helper give the tree a fresh store gives after same-size edits at the end of the walk', async () => {
    const store = await SnapshotStore.open({
      worktree: wt,
      dataDir: join(base, 'data'),
      ignoreDefaults: [],
      log: () => undefined,
    });
    try {
      const first = await store.track();
      expect(await store.track()).toBe(first);
      expect(await store.track()).toBe(first); // the helper is warm by now
      const edited = rels.slice(-3);
      for (const rel of edited) {
        writeFileSync(
          join(wt, rel),
          `FILE ${rel.slice(rel.indexOf('f') + 1, rel.indexOf('.'))}\n`.slice(0, lstatSync(join(wt, rel)).size),
        );
        const t = new Date(OLD.getTime() + 60_000);
        utimesSync(join(wt, rel), t, t);
      }
      rmSync(join(wt, rels[COUNT - 10] as string));
      const after = await store.track();
      const fresh = await SnapshotStore.open({
        worktree: wt,
        dataDir: join(base, 'fresh'),
        ignoreDefaults: [],
        log: () => undefined,
      });
      const expected = await fresh.track();
      await fresh.close();
      expect(after).not.toBe(first);
      expect(after).toBe(expected);
      expect(await store.track()).toBe(expected);
    } finally {
      await store.close();
    }
  });
});
