/**
 * A left-out record put off until the store is idle (left-out.ts) must never leave a smaller record standing after
 * a kill (a hostile review): a tree met again — its record already on disk — with a newly ignored secret beside
 * it has its record rewritten at once, so after a SIGKILL and a reopen a revert to that tree keeps the secret.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { childArgs } from '../proc/test-child';
import { SnapshotStore } from './index';
import { cleanup, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

/** Runs the child to its SIGKILL; answers what it printed. */
async function runChild(wt: string, data: string): Promise<{ out: string; signal: string | null }> {
  const script = fileURLToPath(new URL('./left-out-kill-child.ts', import.meta.url));
  const child = spawn(process.execPath, await childArgs(script, [wt, data]), { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const signal = await new Promise<string | null>((r) => child.on('exit', (_code, sig) => r(sig)));
  return { out: out.trim(), signal };
}

describe('left-out records and a kill', () => {
  it('a revert after a kill keeps an ignored secret of a tree met again', async () => {
    const base = tempDir('leftkill');
    made.push(base);
    const wt = join(base, 'wt');
    const data = join(base, 'data');
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, '.gitignore'), 'secrets.env\n');
    writeFileSync(join(wt, 'a.txt'), 'a');
    const first = await SnapshotStore.open({ worktree: wt, dataDir: data, ignoreDefaults: [] });
    const t0 = await first.track();
    await first.close(); // t0's record (nothing left out) is on disk
    const { out, signal } = await runChild(wt, data);
    expect(signal).toBe('SIGKILL');
    const [again, t1] = out.split(' ');
    expect(again).toBe(t0);
    expect(readFileSync(join(first.gitdir, 'landfall-left-out', t0), 'utf8')).toBe(
      '#landfall-left-out 2\n"secrets.env"',
    );
    const s = await SnapshotStore.open({ worktree: wt, dataDir: data, ignoreDefaults: [] });
    expect(await s.track()).toBe(t1);
    expect(await s.notCaptured([{ path: 'secrets.env', tree: t0 }])).toEqual(['secrets.env']);
    const r = await s.revert([{ hash: t0, files: ['secrets.env', '.gitignore'] }]);
    expect(r.deleted).not.toContain('secrets.env');
    expect(readFileSync(join(wt, 'secrets.env'), 'utf8')).toBe('password');
    await s.close();
  }, 60_000);
});
