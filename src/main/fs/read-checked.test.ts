/**
 * Reads are bounded by bytes actually read, and checked against what was opened (read-checked.ts). The hostile
 * review read `/proc` pseudo-files, which report size 0, without limit (6.5 GB in 30 s): `/proc/self/pagemap`
 * reports 0 bytes and yields gigabytes. Real files, real /proc.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObservedVersions } from './observed';
import { readChecked, readCheckedSync, readDirChecked } from './read-checked';
import { readTextFile } from './text-file';
import { grepTool } from '../tools/grep';
import { readTool } from '../tools/read';
import type { ToolContext } from '../tools/types';

const PSEUDO = existsSync('/proc/self/pagemap') ? `${realpathSync('/proc/self')}/pagemap` : '';
const hasPseudo = PSEUDO !== '';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-bounded-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(hasPseudo)('a pseudo-file that reports size 0 is read only up to the limit', () => {
  it('readTextFile answers too_large instead of reading gigabytes', async () => {
    const r = await readTextFile(PSEUDO, { maxBytes: 1024 * 1024 });
    expect(!r.ok && r.error.code).toBe('too_large');
    expect(!r.ok && r.error.message).toContain('reported size is smaller');
  });

  it('the checked reads (async and sync) stop one byte past the limit', async () => {
    const a = await readChecked(PSEUDO, 64 * 1024);
    expect(!a.ok && a.why).toBe('too_large');
    const b = readCheckedSync(PSEUDO, 64 * 1024);
    expect(!b.ok && b.why).toBe('too_large');
  });

  it('the read and grep tools on a project holding one: too_large, and grep names the file it skipped', async () => {
    const real = realpathSync('/proc/self');
    const ctx: ToolContext = { root: real, sessionId: 's', observed: new ObservedVersions() };
    const read = await readTool.execute(readTool.input.parse({ filePath: 'pagemap' }), ctx);
    expect(!read.ok && read.error).toMatchObject({ code: 'too_large' });
    const grep = await grepTool.execute(grepTool.input.parse({ pattern: 'x', path: 'pagemap' }), ctx);
    expect(grep.ok && grep.output).toBe('No matches found.\n(not searched: pagemap (over 5 MB))');
    expect(grep.ok && grep.metadata.skipped).toEqual([{ path: 'pagemap', reason: 'too_large' }]);
  });
});

describe('what was opened must be what was checked', () => {
  it('a path through a folder swapped for a symlink is refused as moved, its bytes never returned', async () => {
    mkdirSync(path.join(dir, 'ws', 'sub'), { recursive: true });
    mkdirSync(path.join(dir, 'outside'));
    writeFileSync(path.join(dir, 'outside', 'f.txt'), 'OUTSIDE\n');
    writeFileSync(path.join(dir, 'ws', 'sub', 'f.txt'), 'inside\n');
    const checked = path.join(dir, 'ws', 'sub', 'f.txt'); // the real path a boundary check answered
    renameSync(path.join(dir, 'ws', 'sub'), path.join(dir, 'sub-moved'));
    symlinkSync(path.join(dir, 'outside'), path.join(dir, 'ws', 'sub'));
    const r = await readChecked(checked, 1024);
    expect(r).toMatchObject({ ok: false, why: 'moved', opened: path.join(dir, 'outside', 'f.txt') });
    const t = await readTextFile(checked);
    expect(!t.ok && t.error.code).toBe('outside_root');
    expect(await readDirChecked(path.join(dir, 'ws', 'sub'))).toBeUndefined();
  });

  it('a symlink at the last component is never followed', async () => {
    writeFileSync(path.join(dir, 'target.txt'), 'target\n');
    symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'link.txt'));
    expect(await readChecked(path.join(dir, 'link.txt'), 1024)).toMatchObject({ ok: false, why: 'moved' });
    expect(await readChecked(path.join(dir, 'target.txt'), 1024)).toMatchObject({ ok: true });
  });

  it('a regular file larger than the limit by bytes, not by its reported size, is too_large', async () => {
    writeFileSync(path.join(dir, 'big.txt'), 'x'.repeat(2000));
    expect(await readChecked(path.join(dir, 'big.txt'), 1999)).toMatchObject({ ok: false, why: 'too_large' });
    const exact = await readChecked(path.join(dir, 'big.txt'), 2000);
    expect(exact.ok && exact.bytes.length).toBe(2000);
  });
});
