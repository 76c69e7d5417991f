import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFresh, ObservedVersions, recordWrite, type ObservedScope } from './observed';
import { readTextFile } from './text-file';
import { resolveInRoot, type ResolvedPath } from './workspace';

let dir: string;
let ctx: ObservedScope;
let r: ResolvedPath;

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-obs-')));
  writeFileSync(path.join(dir, 'cfg.py'), 'A = 1\n');
  ctx = { sessionId: 's1', observed: new ObservedVersions() };
  const res = await resolveInRoot(dir, 'cfg.py');
  if (!res.ok) throw new Error('setup');
  r = res.value;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const code = async (): Promise<string> => {
  const f = await checkFresh(ctx, r);
  return f.ok ? 'fresh' : f.error.code;
};

async function observe(): Promise<void> {
  const f = await readTextFile(r.real);
  if (f.ok) ctx.observed.record(ctx.sessionId, r.real, f.value.stamp);
}

describe('observed versions', () => {
  it("a file the session never read is not_observed; another session's read does not count", async () => {
    expect(await code()).toBe('not_observed');
    const f = await readTextFile(r.real);
    if (f.ok) ctx.observed.record('other-session', r.real, f.value.stamp);
    expect(await code()).toBe('not_observed');
  });

  it('fresh after a read; stale after the bytes change (even with the same size and mtime); a touch is not a change', async () => {
    await observe();
    expect(await code()).toBe('fresh');
    const st = ctx.observed.get('s1', r.real);
    utimesSync(r.real, new Date(), new Date(Date.now() + 5000));
    expect(await code()).toBe('fresh');
    writeFileSync(r.real, 'A = 2\n');
    const t = (st?.mtimeMs ?? 0) / 1000;
    utimesSync(r.real, t, t);
    expect(await code()).toBe('stale');
  });

  it('a deleted file is stale', async () => {
    await observe();
    rmSync(r.real);
    expect(await code()).toBe('stale');
  });

  it('recordWrite makes the written bytes the observed version; forget drops it', async () => {
    await observe();
    writeFileSync(r.real, 'A = 3\n');
    await recordWrite(ctx, r.real, Buffer.from('A = 3\n'));
    expect(await code()).toBe('fresh');
    ctx.observed.forget('s1', r.real);
    expect(await code()).toBe('not_observed');
  });
});
