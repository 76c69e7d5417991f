/** `landfall apply_patch` on a real temp folder: JSON outcome on stdout, exit codes 0 / 1 / 2. */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../cli';

let dir: string;
afterEach(async () => {
  vi.restoreAllMocks();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function runCli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await main(args);
  return { code, out };
}

describe('landfall apply_patch', () => {
  it('applies a patch file to a folder and prints the outcome', async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'landfall-cli-patch-'));
    await fsp.writeFile(path.join(dir, 'a.txt'), 'one\ntwo\n');
    await fsp.writeFile(
      path.join(dir, 'p.txt'),
      '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** Add File: b.txt\n+b\n*** End Patch\n',
    );
    const { code, out } = await runCli(['apply_patch', '--dir', dir, '--file', path.join(dir, 'p.txt')]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({
      ok: true,
      output: 'Success. Updated the following files:\nM a.txt\nA b.txt',
      metadata: { landed: ['a.txt', 'b.txt'] },
    });
    expect(await fsp.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
  });

  it('a refused patch exits 1 with the error and changes nothing; bad usage exits 2', async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'landfall-cli-patch-'));
    await fsp.writeFile(path.join(dir, 'a.txt'), 'one\n');
    await fsp.writeFile(
      path.join(dir, 'p.txt'),
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Delete File: gone.txt\n*** End Patch\n',
    );
    const { code, out } = await runCli(['apply_patch', '--dir', dir, '--file', path.join(dir, 'p.txt')]);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ ok: false, error: { code: 'missing_file' } });
    expect(await fsp.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect((await runCli(['apply_patch', '--file', path.join(dir, 'p.txt')])).code).toBe(2);
  });
});

describe('landfall apply_patch: bad usage is reported, never a crash', () => {
  it('a missing patch file or a missing --dir folder exits 2 with an invalid_input JSON error', async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'landfall-cli-patch-'));
    const noFile = await runCli(['apply_patch', '--dir', dir, '--file', path.join(dir, 'absent.txt')]);
    expect(noFile.code).toBe(2);
    expect(JSON.parse(noFile.out)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    await fsp.writeFile(path.join(dir, 'p.txt'), '*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch\n');
    const noDir = await runCli(['apply_patch', '--dir', path.join(dir, 'absent'), '--file', path.join(dir, 'p.txt')]);
    expect(noDir.code).toBe(2);
    expect(JSON.parse(noDir.out)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('a patch file that is not UTF-8 is refused (never decoded with U+FFFD into the files)', async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'landfall-cli-patch-'));
    await fsp.writeFile(
      path.join(dir, 'p.txt'),
      Buffer.from('*** Begin Patch\n*** Add File: b.txt\n+caf\xe9\n*** End Patch\n', 'latin1'),
    );
    const r = await runCli(['apply_patch', '--dir', dir, '--file', path.join(dir, 'p.txt')]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    await expect(fsp.access(path.join(dir, 'b.txt'))).rejects.toThrow();
  });
});
