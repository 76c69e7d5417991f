/**
 * PackFile.typeOf (pack-index.ts): an object's type from entry headers alone, a delta's through its chain of bases
 * — the same as reading the object whole, for every object of a first track's pack (similar files stored as
 * deltas); undefined for an id the pack does not hold.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../index';
import { cleanup, tempDir } from '../test-support';
import { ObjectDb } from './object-db';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

describe('PackFile.typeOf', () => {
  it('equals the type read whole, deltas included', async () => {
    const base = tempDir('packtype');
    made.push(base);
    const wt = join(base, 'wt');
    const body = Array.from({ length: 200 }, (_, i) => `export const line${i} = ${i * 7};`).join('\n');
    for (let d = 0; d < 6; d++) {
      mkdirSync(join(wt, `d${d}`), { recursive: true });
      for (let f = 0; f < 40; f++) writeFileSync(join(wt, `d${d}/f${f}.ts`), `${body}\n// ${d} ${f}\n`);
    }
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
    await s.track();
    await s.close();
    const db = new ObjectDb(s.gitdir);
    const counts = { tree: 0, blob: 0, other: 0 };
    let deltas = 0;
    for (const pack of db.packFiles)
      for (const id of pack.ids()) {
        const type = pack.typeOf(id);
        expect([id, type]).toEqual([id, db.read(id)?.type]);
        if (pack.stored(id) === undefined) deltas++; // stored as a delta
        if (type === 'tree' || type === 'blob') counts[type]++;
        else counts.other++;
      }
    expect(counts).toEqual({ tree: 7, blob: 240, other: 0 });
    expect(deltas).toBeGreaterThan(100);
    expect(db.packFiles[0]?.typeOf('0'.repeat(40))).toBe(undefined);
    db.close();
  });
});
