/**
 * The command line's help and usage errors (new-user trial): `--help` lists every command with its flags and an
 * example, `landfall <command> --help` gives that command's usage, and bad usage names the flags the user typed
 * (`--path`, `--old`), never the tools' internal field names (`filePath`, `oldString`).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-cli-help-')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** Run the dispatcher in-process; returns the exit code, stdout and stderr. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((err += String(c)), true));
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, out, err };
}

const ALL = ['read', 'edit', 'write', 'list', 'glob', 'grep', 'apply_patch', 'run', 'replay', 'sessions'];

describe('landfall --help', () => {
  it('lists every command with its flags and one example each', async () => {
    const { code, out } = await cli('--help');
    expect(code).toBe(0);
    for (const name of ALL) {
      expect(out).toMatch(new RegExp(`^  landfall ${name} `, 'm'));
      expect(out).toMatch(new RegExp(`^    example: landfall ${name} `, 'm'));
    }
    expect(out.match(/^ {4}example: /gm)).toHaveLength(ALL.length);
    expect(out).toContain('landfall sessions revert ID MESSAGE [--part P] [--force] [--preview]');
    for (const flag of [
      '--old',
      '--new',
      '--old-file',
      '--content-file',
      '--replace-all',
      '--ignore-case',
      '--file',
      '--provider',
      '--model',
      '--session',
      '--mode',
      '--no-seed',
      '--data',
    ])
      expect(out).toContain(flag);
    expect(out).toContain('landfall <command> --help');
  });

  it('`landfall <command> --help` and `landfall help <command>` give that command only', async () => {
    const edit = await cli('edit', '--help');
    expect(edit.code).toBe(0);
    expect(edit.out).toMatch(/^usage: landfall edit --dir D --path P/);
    expect(edit.out).toContain('--old-file');
    expect(edit.out).not.toContain('apply_patch');
    const replay = await cli('help', 'replay');
    expect(replay.code).toBe(0);
    expect(replay.out).toMatch(/^usage: landfall replay --dir D --session/);
    expect(replay.out).toContain('--no-seed');
    const sessions = await cli('sessions', '-h');
    expect(sessions.code).toBe(0);
    expect(sessions.out).toContain('landfall sessions undo ID [--force] [--preview]');
  });

  it('`landfall sessions` with no or an incomplete verb prints the full sessions usage (exit 2)', async () => {
    for (const args of [['sessions'], ['sessions', 'show'], ['sessions', 'revert', 'ses_1']]) {
      const r = await cli(...args, '--data', path.join(dir, 'data'));
      expect(r.code).toBe(2);
      expect(r.err).toContain('landfall sessions revert ID MESSAGE [--part P] [--force] [--preview]');
      expect(r.err).toContain('landfall sessions list --dir D');
    }
  });
});

describe('bad usage names the flags', () => {
  it('a missing --old or --path is reported by its flag, not the tool field', async () => {
    writeFileSync(path.join(dir, 'x.txt'), 'a\n');
    const noOld = await cli('edit', '--dir', dir, '--path', 'x.txt', '--new', 'B');
    expect(noOld.code).toBe(2);
    const e1 = (JSON.parse(noOld.out) as { error: { code: string; message: string; hint: string } }).error;
    expect(e1).toMatchObject({ code: 'invalid_input', message: '--old (or --old-file) is required.' });
    expect(e1.hint).toContain('landfall edit --help');
    const noPath = await cli('edit', '--dir', dir, '--old', 'a', '--new', 'b');
    const e2 = (JSON.parse(noPath.out) as { error: { message: string } }).error;
    expect(e2.message).toBe('--path is required.');
    const badOffset = await cli('read', '--dir', dir, '--path', 'x.txt', '--offset', 'abc');
    expect(badOffset.code).toBe(2);
    const e3 = (JSON.parse(badOffset.out) as { error: { message: string } }).error;
    expect(e3.message).toMatch(/^--offset: /);
    expect(`${noOld.out}${noPath.out}${badOffset.out}`).not.toMatch(/filePath|oldString|newString/);
  });

  it('an unknown option prints the command usage (exit 2)', async () => {
    const r = await cli('read', '--dir', dir, '--bogus');
    expect(r.code).toBe(2);
    expect(r.err).toContain("Unknown option '--bogus'");
    expect(r.err).toContain('usage: landfall read --dir D --path P');
  });
});
