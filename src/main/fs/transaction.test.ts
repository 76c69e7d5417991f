/**
 * The work-tree transaction (transaction.ts) on real temp folders: atomic per file (rename, never in place), links
 * replaced not followed, hard links broken, all or nothing on a failure, and — with a real child process killed
 * at an exact operation — recovery on the next start puts every file back and removes every temp.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverJournals } from './recovery';
import { runTransaction, runTransactionAsync, TEMP_MARK, type TxOptions, type TxStep } from './transaction';

let outer: string;
let root: string;
let journalDir: string;
beforeEach(() => {
  outer = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-tx-')));
  root = path.join(outer, 'ws');
  journalDir = path.join(outer, 'data', 'journal');
  mkdirSync(root);
});
afterEach(() => rmSync(outer, { recursive: true, force: true }));

const options = (extra: Partial<TxOptions> = {}): TxOptions => ({
  root,
  journalDir,
  label: 'test',
  atomic: true,
  sync: 'replaced',
  ...extra,
});
const file = (rel: string, text: string): TxStep => ({ rel, put: { kind: 'file', bytes: Buffer.from(text) } });
const put = (rel: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

/** Every entry under `dir` (files with their text, links with their target, folders with a slash). */
function tree(dir = root, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(rel === '' ? dir : path.join(dir, rel)).sort()) {
    const p = rel === '' ? name : `${rel}/${name}`;
    const st = lstatSync(path.join(dir, p));
    if (st.isSymbolicLink()) out[p] = `-> ${readlinkSync(path.join(dir, p))}`;
    else if (st.isDirectory()) Object.assign(out, { [`${p}/`]: '' }, tree(dir, p));
    else out[p] = readFileSync(path.join(dir, p), 'utf8');
  }
  return out;
}
const journals = (): string[] => readdirSync(journalDir).filter((n) => n !== 'recovered.log');

describe('runTransaction', () => {
  it('lands writes, removals and links; keeps the mode; leaves no temp and no journal', () => {
    put('a.txt', 'old a\n');
    put('gone.txt', 'bye\n');
    chmodSync(path.join(root, 'a.txt'), 0o754);
    const r = runTransaction(
      [
        file('a.txt', 'new a\n'),
        file('deep/new/b.txt', 'b\n'),
        { rel: 'gone.txt', put: { kind: 'delete' } },
        { rel: 'link', put: { kind: 'link', target: 'a.txt' } },
      ],
      options(),
    );
    expect(r).toEqual({
      written: ['a.txt', 'deep/new/b.txt', 'link'],
      removed: ['gone.txt'],
      unchanged: [],
      failed: [],
      notRestored: [],
    });
    expect(tree()).toEqual({
      'a.txt': 'new a\n',
      'deep/': '',
      'deep/new/': '',
      'deep/new/b.txt': 'b\n',
      link: '-> a.txt',
    });
    expect(statSync(path.join(root, 'a.txt')).mode & 0o7777).toBe(0o754);
    expect(journals()).toEqual([]);
  });

  it('replaces a symlink at the target instead of writing through it, and breaks a hard link to an outside file', () => {
    mkdirSync(path.join(outer, 'outside'));
    writeFileSync(path.join(outer, 'outside', 'secret.txt'), 'outside\n');
    symlinkSync(path.join(outer, 'outside', 'secret.txt'), path.join(root, 'via-link.txt'));
    linkSync(path.join(outer, 'outside', 'secret.txt'), path.join(root, 'hard.txt'));
    const r = runTransaction([file('via-link.txt', 'mine\n'), file('hard.txt', 'mine too\n')], options());
    expect(r.failed).toEqual([]);
    expect(readFileSync(path.join(outer, 'outside', 'secret.txt'), 'utf8')).toBe('outside\n');
    expect(tree()).toEqual({ 'hard.txt': 'mine too\n', 'via-link.txt': 'mine\n' });
    expect(statSync(path.join(root, 'hard.txt')).nlink).toBe(1);
  });

  it('refuses to write through a folder that is a symlink (the link is never followed)', () => {
    mkdirSync(path.join(outer, 'outside'));
    symlinkSync(path.join(outer, 'outside'), path.join(root, 'sub'));
    const r = runTransaction([file('sub/x.txt', 'x\n')], options());
    expect(r.failed).toMatchObject([{ rel: 'sub/x.txt', code: 'ELINK' }]);
    expect(readdirSync(path.join(outer, 'outside'))).toEqual([]);
  });

  it('atomic: a failure at the third rename puts everything back, folders made for it included', async () => {
    put('one.txt', '1\n');
    put('two.txt', '2\n');
    put('four.txt', '4\n');
    const before = tree();
    let renames = 0;
    const steps = [
      file('one.txt', 'ONE\n'),
      file('two.txt', 'TWO\n'),
      file('new/deep/three.txt', '3\n'),
      { rel: 'four.txt', put: { kind: 'delete' as const } },
    ];
    const hook = (op: string): void => {
      if (op === 'rename' && ++renames === 3) throw Object.assign(new Error('injected'), { code: 'EIO' });
    };
    const r = await runTransactionAsync(steps, options({ hook }));
    expect(r).toEqual({
      written: [],
      removed: [],
      unchanged: [],
      failed: [{ rel: 'new/deep/three.txt', code: 'EIO', message: 'injected' }],
      notRestored: [],
    });
    expect(tree()).toEqual(before);
    expect(journals()).toEqual([]);
  });

  it('not atomic: a failing file is reported and the others land', () => {
    put('blocker', 'a file where a folder is needed\n');
    const r = runTransaction([file('a.txt', 'a\n'), file('blocker/b.txt', 'b\n')], options({ atomic: false }));
    expect(r.written).toEqual(['a.txt']);
    expect(r.failed).toMatchObject([{ rel: 'blocker/b.txt', code: 'ENOTDIR' }]);
    expect(tree()).toEqual({ 'a.txt': 'a\n', blocker: 'a file where a folder is needed\n' });
  });
});

const CHILD = fileURLToPath(new URL('./testing/tx-kill-child.ts', import.meta.url));

/** Runs the kill child on `steps`, killed at `kill` ("rename:2"); returns whether it was killed. */
function killedAt(kill: string, steps: unknown[], atomic = true): boolean {
  const spec = path.join(outer, 'spec.json');
  writeFileSync(spec, JSON.stringify({ root, journalDir, kill, atomic, steps }));
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, spec], { encoding: 'utf8' });
  return r.signal === 'SIGKILL';
}

describe('recovery after a kill (a real child process, SIGKILLed at an exact operation)', () => {
  const steps = [
    { rel: 'a.txt', text: 'A2\n' },
    { rel: 'b.txt', text: 'B2\n' },
    { rel: 'sub/c.txt', text: 'C2\n' },
    { rel: 'd.txt', delete: true },
  ];
  const seed = (): void => {
    put('a.txt', 'A1\n');
    put('b.txt', 'B1\n');
    put('d.txt', 'D1\n');
  };

  it('killed between renames: the files are mixed and temps lie in the project; recovery puts all back', () => {
    seed();
    const before = tree();
    expect(killedAt('rename:3', steps)).toBe(true);
    const mixed = tree();
    expect(mixed['a.txt']).toBe('A2\n'); // the kill really came in the middle
    expect(Object.keys(mixed).some((n) => n.includes(TEMP_MARK))).toBe(true);
    const reports = recoverJournals(journalDir);
    expect(reports).toMatchObject([{ label: 'kill-test', outcome: 'rolled_back', kept: [] }]);
    expect(tree()).toEqual(before);
    expect(journals()).toEqual([]);
  });

  it('killed while staging (before anything changed): recovery only removes the temps', () => {
    seed();
    const before = tree();
    expect(killedAt('stage:2', steps)).toBe(true);
    expect(recoverJournals(journalDir)).toMatchObject([{ outcome: 'discarded', tempsRemoved: 1 }]);
    expect(tree()).toEqual(before);
  });

  it('a file the user changed after the kill is kept, with the old bytes saved beside the journal', () => {
    seed();
    expect(killedAt('rename:2', steps)).toBe(true);
    writeFileSync(path.join(root, 'a.txt'), 'user edit\n');
    const [r] = recoverJournals(journalDir);
    expect(r?.kept).toMatchObject([{ rel: 'a.txt', reason: 'changed_since' }]);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('user edit\n');
    expect(readFileSync(r?.kept[0]?.backup as string, 'utf8')).toBe('A1\n');
    expect(readFileSync(path.join(root, 'b.txt'), 'utf8')).toBe('B1\n');
  });

  it('a transaction whose owner is alive is never touched', () => {
    seed();
    const r = runTransaction(
      [file('a.txt', 'A2\n')],
      options({ hook: () => expect(recoverJournals(journalDir)).toEqual([]) }),
    );
    expect(r.failed).toEqual([]);
  });
});
