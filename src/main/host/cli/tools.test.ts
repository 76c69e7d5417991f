import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-cli-')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** Run the dispatcher in-process; returns the exit code and the JSON it printed. */
async function cli(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    chunks.push(String(c));
    return true;
  });
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, json: JSON.parse(chunks.join('')) as Record<string, unknown> };
}

describe('landfall read|edit|write|list|glob|grep', () => {
  it('edit records the read implicitly (oldString must match the current bytes) and prints the outcome', async () => {
    writeFileSync(path.join(dir, 'x.txt'), 'a\r\nb\r\n');
    const r = await cli('edit', '--dir', dir, '--path', 'x.txt', '--old', 'b', '--new', 'B');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      ok: true,
      title: 'edit x.txt',
      metadata: { rung: 'simple', diff: { file: 'x.txt', additions: 1, deletions: 1 } },
    });
    expect(readFileSync(path.join(dir, 'x.txt'), 'latin1')).toBe('a\r\nB\r\n');
    const miss = await cli('edit', '--dir', dir, '--path', 'x.txt', '--old', 'zzz', '--new', 'q');
    expect(miss.code).toBe(1);
    expect(miss.json).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('write over an existing file needs --force; a new file does not', async () => {
    writeFileSync(path.join(dir, 'keep.txt'), 'mine\n');
    const refused = await cli('write', '--dir', dir, '--path', 'keep.txt', '--content', 'theirs\n');
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({
      ok: false,
      error: { code: 'not_observed', hint: expect.stringContaining('--force') },
    });
    expect(readFileSync(path.join(dir, 'keep.txt'), 'latin1')).toBe('mine\n');
    expect((await cli('write', '--dir', dir, '--path', 'keep.txt', '--content', 'theirs\n', '--force')).code).toBe(0);
    expect(readFileSync(path.join(dir, 'keep.txt'), 'latin1')).toBe('theirs\n');
    expect((await cli('write', '--dir', dir, '--path', 'new/n.txt', '--content', 'n\n')).code).toBe(0);
  });

  it('read, list, glob and grep print their outcomes; bad usage exits 2', async () => {
    writeFileSync(path.join(dir, 'a.ts'), 'const alpha = 1;\n');
    expect((await cli('read', '--dir', dir, '--path', 'a.ts')).json).toMatchObject({
      ok: true,
      output: '1: const alpha = 1;',
    });
    expect((await cli('list', '--dir', dir)).json).toMatchObject({ ok: true, output: './\na.ts' });
    expect((await cli('glob', '--dir', dir, '--pattern', '*.ts')).json).toMatchObject({ ok: true, output: 'a.ts' });
    expect((await cli('grep', '--dir', dir, '--pattern', 'alp')).json).toMatchObject({
      ok: true,
      output: 'a.ts:\n  1: const alpha = 1;',
    });
    expect((await cli('read', '--dir', dir)).code).toBe(2);
    expect((await cli('read', '--dir', dir, '--path', '../x')).json).toMatchObject({
      ok: false,
      error: { code: 'outside_root' },
    });
  });

  it('bin/landfall.mjs runs the same dispatcher through tsx', () => {
    writeFileSync(path.join(dir, 'x.txt'), 'one\n');
    const bin = path.resolve(process.cwd(), 'bin', 'landfall.mjs');
    const r = spawnSync(
      process.execPath,
      [bin, 'edit', '--dir', dir, '--path', 'x.txt', '--old', 'one', '--new', 'two'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      output: 'x.txt: Edited line 1 (rung simple, exact match).',
    });
    expect(readFileSync(path.join(dir, 'x.txt'), 'latin1')).toBe('two\n');
  });
});

describe('landfall tools: bad usage is reported, never a crash', () => {
  it('a --dir that does not exist exits 2 with invalid_input', async () => {
    const r = await cli('read', '--dir', path.join(dir, 'absent'), '--path', 'x.txt');
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('a missing --content-file / --old-file exits 2 with invalid_input and writes nothing', async () => {
    const r = await cli('write', '--dir', dir, '--path', 'n.txt', '--content-file', path.join(dir, 'absent'));
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    writeFileSync(path.join(dir, 'x.txt'), 'a\n');
    const e = await cli('edit', '--dir', dir, '--path', 'x.txt', '--old-file', path.join(dir, 'absent'), '--new', 'b');
    expect(e.code).toBe(2);
    expect(readFileSync(path.join(dir, 'x.txt'), 'latin1')).toBe('a\n');
  });

  it('a --content-file that is not UTF-8 is refused, never written with U+FFFD', async () => {
    writeFileSync(path.join(dir, 'latin.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    const r = await cli('write', '--dir', dir, '--path', 'n.txt', '--content-file', path.join(dir, 'latin.txt'));
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(() => readFileSync(path.join(dir, 'n.txt'))).toThrow();
  });
});

describe('landfall tools: writes are journaled in the data folder', () => {
  /** Every journal folder a CLI write may have used: `<data>/journal` and anything journal-like in the temp dir. */
  function journals(data: string, tmp: string): { inData: boolean; inTmp: string[] } {
    return {
      inData: existsSync(path.join(data, 'journal')),
      inTmp: readdirSync(tmp).filter((n) => n.includes('journal')),
    };
  }

  it('edit, write and apply_patch use <data>/journal (--data, else $LANDFALL_DATA_DIR), never the shared temp dir', async () => {
    const tmp = path.join(dir, 'tmp');
    const flagData = path.join(dir, 'flag-data');
    const envData = path.join(dir, 'env-data');
    const project = path.join(dir, 'p');
    for (const d of [tmp, project]) mkdirSync(d);
    writeFileSync(path.join(project, 'a.txt'), 'one\n');
    writeFileSync(
      path.join(dir, 'fix.patch'),
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-ONE\n+uno\n*** End Patch\n',
    );
    vi.stubEnv('TMPDIR', tmp);
    vi.stubEnv('LANDFALL_DATA_DIR', envData);
    try {
      const e = await cli(
        'edit',
        '--dir',
        project,
        '--path',
        'a.txt',
        '--old',
        'one',
        '--new',
        'ONE',
        '--data',
        flagData,
      );
      expect(e.code).toBe(0);
      expect(journals(flagData, tmp)).toEqual({ inData: true, inTmp: [] });
      expect(journals(envData, tmp).inData).toBe(false);
      expect((await cli('write', '--dir', project, '--path', 'b.txt', '--content', 'b\n')).code).toBe(0);
      expect(journals(envData, tmp)).toEqual({ inData: true, inTmp: [] });
      rmSync(envData, { recursive: true });
      const p = await cli('apply_patch', '--dir', project, '--file', path.join(dir, 'fix.patch'));
      expect(p.code).toBe(0);
      expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('uno\n');
      expect(journals(envData, tmp)).toEqual({ inData: true, inTmp: [] });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
