/**
 * The new-user trial's data-loss steps, end to end through the command line (in-process, real data folder):
 * repeated undo after a user edit keeps the edit (conflict reported, preview equal to the real run), and a replay
 * into a folder holding a different base file refuses (exit 1, `exists`) unless --force, which backs it up.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './session';
import { cleanupTemp, SESSIONS_DIR, tempDir } from '../../agent/testing/fixtures';

const HYDRA = path.join(SESSIONS_DIR, 'swea-hydra-1915-kimik2');
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  cleanupTemp(...dirs.splice(0));
});

async function capture(command: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  try {
    return { code: await run(command, args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('trial data-loss steps through the command line', () => {
  it('undo, USER WORK appended, undo --preview and undo → edge_cases.py skipped and kept', async () => {
    const data = tempDir('cli-data');
    const dir = tempDir('cli-proj');
    dirs.push(data, dir);
    expect((await capture('replay', ['--dir', dir, '--session', HYDRA, '--data', data])).code).toBe(0);
    const id = /^(ses_\w+)/m.exec(
      (await capture('sessions', ['list', '--dir', dir, '--data', data])).out,
    )?.[1] as string;
    const first = await capture('sessions', ['undo', id, '--data', data]);
    expect(first.out).toMatch(/^restored: .*edge_cases\.py/m);
    appendFileSync(path.join(dir, 'edge_cases.py'), 'USER WORK\n');
    const mine = readFileSync(path.join(dir, 'edge_cases.py'), 'utf8');
    const preview = await capture('sessions', ['undo', id, '--preview', '--data', data]);
    const real = await capture('sessions', ['undo', id, '--data', data]);
    expect(real.code).toBe(0);
    expect(real.out).toMatch(/^skipped: edge_cases\.py$/m);
    expect(real.out).toMatch(/^conflicts \(.*\): edge_cases\.py$/m);
    const listLines = (text: string): string[] =>
      text.split('\n').filter((l) => /^(restored|deleted|skipped|conflicts)\b/.test(l));
    expect(listLines(preview.out)).toEqual(listLines(real.out));
    expect(listLines(real.out)).toHaveLength(4);
    expect(readFileSync(path.join(dir, 'edge_cases.py'), 'utf8')).toBe(mine);
    for (let i = 0; i < 3; i++) await capture('sessions', ['redo', id, '--data', data]);
    expect(readFileSync(path.join(dir, 'edge_cases.py'), 'utf8')).toBe(mine);
  }, 60_000);

  it('replay into a folder with a different hydra/utils.py: refused, then --force backs it up', async () => {
    const data = tempDir('cli-data');
    const dir = tempDir('cli-proj');
    dirs.push(data, dir);
    mkdirSync(path.join(dir, 'hydra'));
    writeFileSync(path.join(dir, 'hydra/utils.py'), 'mine\n');
    const refused = await capture('replay', ['--dir', dir, '--session', HYDRA, '--data', data]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^landfall: exists: .*hydra\/utils\.py/m);
    expect(readFileSync(path.join(dir, 'hydra/utils.py'), 'utf8')).toBe('mine\n');
    expect((await capture('sessions', ['list', '--dir', dir, '--data', data])).out).toBe('');
    const forced = await capture('replay', ['--dir', dir, '--session', HYDRA, '--force', '--data', data]);
    expect(forced.code).toBe(0);
    const where = /^ {2}→ (.+)$/m.exec(forced.out)?.[1] as string;
    expect(where.startsWith(path.join(data, 'replay-backups'))).toBe(true);
    expect(readFileSync(path.join(where, 'hydra/utils.py'), 'utf8')).toBe('mine\n');
  }, 60_000);
});
