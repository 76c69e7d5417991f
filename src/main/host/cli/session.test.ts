/**
 * The session commands of the command line, end to end in-process: replay a corpus session into a temp folder
 * (per-call table and final diff printed), list the sessions, undo and redo a turn.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './session';
import { cleanupTemp, SESSIONS_DIR, tempDir } from '../../agent/testing/fixtures';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  cleanupTemp(...dirs.splice(0));
});

async function capture(command: string, args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    const code = await run(command, args);
    return { code, out };
  } finally {
    spy.mockRestore();
  }
}

describe('landfall replay / sessions', () => {
  it('replays a recorded session, lists it, and walks undo / redo', async () => {
    const data = tempDir('cli-data');
    const dir = tempDir('cli-proj');
    dirs.push(data, dir);
    const replay = await capture('replay', [
      '--dir',
      dir,
      '--session',
      path.join(SESSIONS_DIR, 'aider-requests-863-a4-gpt4o'),
      '--data',
      data,
    ]);
    expect(replay.code).toBe(0);
    expect(replay.out).toMatch(/^\s+seq\s+tool\s+recorded\s+landfall\s+path$/m);
    expect(replay.out).toMatch(/^\s+2\s+edit\s+ok\s+ok\s+requests\/models\.py$/m);
    expect(replay.out).toContain('diff --git a/requests/models.py b/requests/models.py');
    const end = readFileSync(path.join(dir, 'requests/models.py'), 'utf8');
    const list = await capture('sessions', ['list', '--dir', dir, '--data', data]);
    expect(list.code).toBe(0);
    const id = /^(ses_\w+)/m.exec(list.out)?.[1] as string;
    expect(list.out).toContain('replay aider-requests-863-a4-gpt4o');
    const undo = await capture('sessions', ['undo', id, '--data', data]);
    expect(undo.code).toBe(0);
    expect(undo.out).toContain('undone prompt: Replay turn');
    expect(readFileSync(path.join(dir, 'requests/models.py'), 'utf8')).not.toBe(end);
    const redo = await capture('sessions', ['redo', id, '--data', data]);
    expect(redo.code).toBe(0);
    expect(readFileSync(path.join(dir, 'requests/models.py'), 'utf8')).toBe(end);
    const bad = await capture('replay', ['--dir', dir]);
    expect(bad.code).toBe(2);
  }, 60_000);
});

describe('landfall sessions: preview and a damaged database', () => {
  it('revert --preview says nothing was written and leaves the files; a damaged database exits 1 with io_error', async () => {
    const data = tempDir('cli-data');
    const dir = tempDir('cli-proj');
    dirs.push(data, dir);
    expect(
      (
        await capture('replay', [
          '--dir',
          dir,
          '--session',
          path.join(SESSIONS_DIR, 'aider-requests-863-a4-gpt4o'),
          '--data',
          data,
        ])
      ).code,
    ).toBe(0);
    const end = readFileSync(path.join(dir, 'requests/models.py'), 'utf8');
    const id = /^(ses_\w+)/m.exec(
      (await capture('sessions', ['list', '--dir', dir, '--data', data])).out,
    )?.[1] as string;
    const first = /^user (msg_\w+)$/m.exec(
      (await capture('sessions', ['show', id, '--data', data])).out,
    )?.[1] as string;
    const preview = await capture('sessions', ['revert', id, first, '--preview', '--data', data]);
    expect(preview.code).toBe(0);
    expect(preview.out).toMatch(/^preview — nothing was written$/m);
    expect(preview.out).toMatch(/^restored: requests\/models\.py$/m);
    expect(readFileSync(path.join(dir, 'requests/models.py'), 'utf8')).toBe(end);
    const damaged = tempDir('cli-bad');
    dirs.push(damaged);
    writeFileSync(path.join(damaged, 'landfall.db'), 'not a database\n'.repeat(100));
    let errText = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errText += String(chunk);
      return true;
    });
    const bad = await capture('sessions', ['list', '--dir', dir, '--data', damaged]);
    expect(bad.code).toBe(1);
    expect(errText).toMatch(/^landfall: io_error: .*landfall\.db is not a readable session database/m);
    expect(readFileSync(path.join(damaged, 'landfall.db'), 'utf8')).toBe('not a database\n'.repeat(100));
  }, 60_000);
});
