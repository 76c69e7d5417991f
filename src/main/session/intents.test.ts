/**
 * Intents (intents.ts) with the transaction they name (fs/transaction.ts `intent`), on real temp folders and a real
 * SQLite file: a committed transaction keeps its journal folder (plan and mark, no backups) until released; one
 * step and no step are journaled too (the mark is what tells a kill's survivor what happened); a recovery reports a
 * kept folder once and leaves it; rows and folders of a dead writer are found, and a folder whose record was
 * written (no row) is released.
 */
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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalOutcome } from '../fs/journal';
import { recoverJournals } from '../fs/recovery';
import { runTransaction } from '../fs/transaction';
import { Intents } from './intents';
import { SessionStore } from './store';

let outer: string;
let root: string;
let journalDir: string;
let store: SessionStore;
let intents: Intents;
beforeEach(() => {
  outer = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-intents-')));
  root = path.join(outer, 'ws');
  journalDir = path.join(outer, 'data', 'journal');
  mkdirSync(root);
  store = SessionStore.open(path.join(outer, 'data', 'landfall.db'));
  intents = new Intents(store.db, journalDir);
});
afterEach(() => {
  store.close();
  rmSync(outer, { recursive: true, force: true });
});

const write = (intent: string, files: Record<string, string>) =>
  runTransaction(
    Object.entries(files).map(([rel, text]) => ({ rel, put: { kind: 'file' as const, bytes: Buffer.from(text) } })),
    { root, journalDir, label: 'revert', atomic: false, sync: 'replaced', intent },
  );

/** A pid that no process has any more (a child that ran and ended). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim());
}

/** Make the journal folder of `id` look as if a process that is gone wrote it. */
function orphan(id: string): void {
  const plan = path.join(journalDir, id, 'plan.json');
  writeFileSync(plan, JSON.stringify({ ...JSON.parse(readFileSync(plan, 'utf8')), pid: deadPid(), started: 'x' }));
}

describe('a transaction named by an intent', () => {
  it('keeps its committed folder without backups until released; one step and no step are journaled too', () => {
    writeFileSync(path.join(root, 'a.txt'), 'old a');
    const id = intents.begin('ses_1', 'revert', { before: null, after: null });
    const r = write(id, { 'a.txt': 'new a', 'b.txt': 'new b' });
    expect([r.written, journalOutcome(journalDir, id)]).toEqual([['a.txt', 'b.txt'], 'committed']);
    expect(readdirSync(path.join(journalDir, id)).sort()).toEqual(['committed', 'plan.json']);
    intents.complete(id, () => undefined);
    expect([journalOutcome(journalDir, id), intents.has(id)]).toEqual(['none', false]);

    const one = intents.begin('ses_1', 'revert', {});
    write(one, { 'a.txt': 'newer a' });
    const none = intents.begin('ses_1', 'revert', {});
    write(none, {});
    expect([journalOutcome(journalDir, one), journalOutcome(journalDir, none)]).toEqual(['committed', 'committed']);
  });

  it('a recovery reports a kept committed folder once and leaves it for its caller', () => {
    const id = intents.begin('ses_1', 'revert', {});
    write(id, { 'a.txt': 'x', 'b.txt': 'y' });
    orphan(id);
    const first = recoverJournals(journalDir);
    const second = recoverJournals(journalDir);
    expect([first.map((x) => [x.id, x.outcome]), second.length]).toEqual([[[id, 'completed']], 0]);
    expect(journalOutcome(journalDir, id)).toBe('committed');
  });

  it('finds the rows of a dead writer (never a live one) and releases folders whose record was written', () => {
    const live = intents.begin('ses_1', 'revert', { n: 1 });
    const dead = intents.begin('ses_2', 'review.decided', { n: 2 });
    store.db.prepare('UPDATE history_intents SET pid = ?, started = ? WHERE id = ?').run(deadPid(), 'x', dead);
    expect(intents.orphaned().map((i) => [i.id, i.kind, i.data])).toEqual([[dead, 'review.decided', { n: 2 }]]);
    // Killed after the record (row gone) and before the release: the folder goes; a live writer's stays.
    const recorded = intents.begin('ses_1', 'revert', {});
    write(recorded, { 'c.txt': 'c' });
    orphan(recorded);
    intents.remove(recorded);
    write(live, { 'd.txt': 'd' });
    intents.remove(live);
    expect(intents.releaseStrays()).toBe(1);
    expect([existsSync(path.join(journalDir, recorded)), existsSync(path.join(journalDir, live))]).toEqual([
      false,
      true,
    ]);
  });
});
