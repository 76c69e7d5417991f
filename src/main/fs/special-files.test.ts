/**
 * Files that are not regular files: a FIFO (named pipe) inside the project must be refused at once, never block
 * the reader forever (opening a FIFO for reading waits for a writer; reading it waits for data).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTextFile } from './text-file';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-special-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('readTextFile on files that are not regular', () => {
  it('a FIFO is refused as io_error naming it (not_regular), without waiting for a writer', async () => {
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const r = await readTextFile(fifo);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('io_error');
    expect(r.error.data).toMatchObject({ notRegular: 'fifo' });
    expect(r.error.message).toContain('not a regular file');
  }, 5_000);
});
