import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_MARKER, writeFileAtomic } from './atomic-write';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-atomic-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const temps = (d: string): string[] => readdirSync(d).filter((n) => n.includes(TEMP_MARKER));

describe('writeFileAtomic', () => {
  it('replaces the bytes, keeps the mode, leaves no temp file', async () => {
    const f = path.join(dir, 'run.sh');
    writeFileSync(f, 'old\n');
    chmodSync(f, 0o751);
    await writeFileAtomic(f, Buffer.from('new\n'));
    expect(readFileSync(f, 'latin1')).toBe('new\n');
    expect(statSync(f).mode & 0o777).toBe(0o751);
    expect(temps(dir)).toEqual([]);
  });

  it('creates missing parent folders for a new file', async () => {
    const f = path.join(dir, 'a', 'b', 'c.txt');
    await writeFileAtomic(f, Buffer.from('x'));
    expect(readFileSync(f, 'latin1')).toBe('x');
  });

  it('on an error (target is a folder) throws, removes its temp file, and leaves the target as it was', async () => {
    const target = path.join(dir, 'folder');
    mkdirSync(target);
    writeFileSync(path.join(target, 'inside.txt'), 'keep');
    await expect(writeFileAtomic(target, Buffer.from('x'))).rejects.toThrow();
    expect(temps(dir)).toEqual([]);
    expect(readFileSync(path.join(target, 'inside.txt'), 'latin1')).toBe('keep');
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const SIZE = 50 * 1024 * 1024;

/** Start a child that atomically writes 50 MB of 'N' over `target`; kill it with SIGKILL mid-write. */
function killMidWrite(target: string, delayAfterTempMs: number): Promise<void> {
  const script = path.join(dir, 'writer.mts');
  writeFileSync(
    script,
    `import { writeFileAtomic } from ${JSON.stringify(path.join(here, 'atomic-write.ts'))};\n` +
      `const bytes = Buffer.alloc(${SIZE}, 'N');\n` +
      `process.stdout.write('go\\n');\n` +
      `for (;;) await writeFileAtomic(${JSON.stringify(target)}, bytes);\n`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.on('error', reject);
    child.on('exit', () => resolve());
    child.stdout.once('data', () => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (temps(path.dirname(target)).length > 0 || Date.now() - started > 10_000) {
          clearInterval(poll);
          setTimeout(() => child.kill('SIGKILL'), delayAfterTempMs);
        }
      }, 1);
    });
  });
}

describe('crash safety', () => {
  it('a writer killed with SIGKILL while writing 50 MB leaves exactly the old bytes or the new bytes', async () => {
    const target = path.join(dir, 'big.bin');
    const old = Buffer.alloc(SIZE, 'O');
    const fresh = Buffer.alloc(SIZE, 'N');
    let killedMidWrite = 0;
    for (const delay of [0, 15, 40]) {
      writeFileSync(target, old);
      await killMidWrite(target, delay);
      const now = readFileSync(target);
      expect(now.equals(old) || now.equals(fresh)).toBe(true);
      // A SIGKILLed writer cannot clean up: its temp file may remain (proof the kill came mid-write), but it is
      // never the target.
      if (temps(dir).length > 0) killedMidWrite++;
      for (const t of temps(dir)) rmSync(path.join(dir, t));
    }
    expect(killedMidWrite).toBeGreaterThan(0);
  });
});

describe('ownership (rename replaces the inode, so the owner must be carried over by hand)', () => {
  it.runIf(process.getuid?.() === 0)('writeFileAtomic keeps an existing file owner and group', async () => {
    const f = path.join(dir, 'owned.txt');
    writeFileSync(f, 'old\n');
    chownSync(f, 4321, 4322);
    await writeFileAtomic(f, Buffer.from('new\n'));
    expect(readFileSync(f, 'latin1')).toBe('new\n');
    expect([statSync(f).uid, statSync(f).gid]).toEqual([4321, 4322]);
  });
});
