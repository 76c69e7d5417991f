/**
 * Every history operation compares with the bytes on disk NOW (new-user trial: repeated undo lost user edits).
 * Real service (SQLite in a temp data folder, real snapshot store), turns driven by scripted replay calls.
 * Rule under test (revert-plan.ts): a file whose bytes differ from what Landfall last left there (the agent's
 * step, or the revert that is in place) is a conflict — skipped and kept unless `force`; unrevert never
 * overwrites it (no force there), and redo only with `force`.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, scripted } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const read = (callId: string, filePath: string) => ({ callId, toolName: 'read', input: { filePath } });
const edit = (callId: string, filePath: string, oldString: string, newString: string) => ({
  callId,
  toolName: 'edit',
  input: { filePath, oldString, newString },
});
const write = (callId: string, filePath: string, content: string) => ({
  callId,
  toolName: 'write',
  input: { filePath, content },
});
const file = (x: Harness, p: string): string | undefined =>
  existsSync(path.join(x.root, p)) ? readFileSync(path.join(x.root, p), 'utf8') : undefined;

/** Two turns like the trial's replay: turn 1 edits edge.py, turn 2 edits it again and creates repro.py. */
async function twoTurns(x: Harness): Promise<{ s: string; t1: string; t2: string }> {
  writeFileSync(path.join(x.root, 'edge.py'), 'base\n');
  const s = x.newSession();
  const model = scripted([
    [read('r1', 'edge.py'), edit('e1', 'edge.py', 'base', 'one')],
    [read('r2', 'edge.py'), edit('e2', 'edge.py', 'one', 'two'), write('w', 'repro.py', 'print(1)\n')],
  ]);
  const a = await x.svc.runWithModel(s, model, 'turn 1');
  const b = await x.svc.runWithModel(s, model, 'turn 2');
  if (!a.ok || !b.ok) throw new Error('turn failed');
  return { s, t1: a.value.userMessageId, t2: b.value.userMessageId };
}

describe('history operations compare with the disk now', () => {
  it('trial repro: undo, user edit, undo again → conflict, user work kept; redo and unrevert keep it too', async () => {
    h = await harness();
    const { s } = await twoTurns(h);
    const u1 = await h.svc.undo(s);
    expect(u1.ok && [u1.value.restored, u1.value.deleted, u1.value.skipped]).toEqual([['edge.py'], ['repro.py'], []]);
    expect(file(h, 'edge.py')).toBe('one\n');
    appendFileSync(path.join(h.root, 'edge.py'), 'USER WORK\n');
    const preview = await h.svc.undo(s, { preview: true });
    const u2 = await h.svc.undo(s);
    const lists = (r: typeof u2) =>
      r.ok
        ? {
            restored: r.value.restored,
            deleted: r.value.deleted,
            skipped: r.value.skipped,
            conflicts: r.value.conflicts,
          }
        : r.error.code;
    expect(lists(u2)).toEqual({
      restored: [],
      deleted: [],
      skipped: ['edge.py'],
      conflicts: [{ path: 'edge.py', reason: 'changed_after_revert' }],
    });
    expect(lists(preview)).toEqual(lists(u2));
    expect(file(h, 'edge.py')).toBe('one\nUSER WORK\n');
    const r1 = await h.svc.redo(s);
    expect(r1.ok && r1.value.skipped).toEqual(['edge.py']);
    expect(file(h, 'edge.py')).toBe('one\nUSER WORK\n');
    const r2 = await h.svc.redo(s);
    expect(r2.ok && [r2.value.restored, r2.value.skipped]).toEqual([['repro.py'], ['edge.py']]);
    expect(file(h, 'edge.py')).toBe('one\nUSER WORK\n');
    expect(file(h, 'repro.py')).toBe('print(1)\n');
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.session.revert).toBeUndefined();
  });

  it('a user edit while reverted is never overwritten by unrevert; a clean file still comes back', async () => {
    h = await harness();
    const { s, t1 } = await twoTurns(h);
    expect((await h.svc.revert(s, t1)).ok).toBe(true);
    expect(file(h, 'edge.py')).toBe('base\n');
    writeFileSync(path.join(h.root, 'edge.py'), 'base\nmine\n');
    const un = await h.svc.unrevert(s);
    expect(un.ok && [un.value.restored, un.value.skipped, un.value.conflicts]).toEqual([
      ['repro.py'],
      ['edge.py'],
      [{ path: 'edge.py', reason: 'changed_after_revert' }],
    ]);
    expect(file(h, 'edge.py')).toBe('base\nmine\n');
    expect(file(h, 'repro.py')).toBe('print(1)\n');
  });

  it('repeated revert of a clean file still walks back; force overwrites a changed one and unrevert gives the end state back', async () => {
    h = await harness();
    const { s, t1 } = await twoTurns(h);
    expect((await h.svc.undo(s)).ok).toBe(true);
    const again = await h.svc.revert(s, t1);
    expect(again.ok && [again.value.restored, again.value.skipped]).toEqual([['edge.py'], []]);
    expect(file(h, 'edge.py')).toBe('base\n');
    writeFileSync(path.join(h.root, 'edge.py'), 'scratch\n');
    const f2 = await h.svc.revert(s, t1, undefined, { force: true });
    expect(f2.ok && [f2.value.restored, f2.value.conflicts.map((c) => c.path)]).toEqual([['edge.py'], ['edge.py']]);
    expect(file(h, 'edge.py')).toBe('base\n');
    const un = await h.svc.unrevert(s);
    expect(un.ok && un.value.skipped).toEqual([]);
    expect(file(h, 'edge.py')).toBe('two\n');
    expect(file(h, 'repro.py')).toBe('print(1)\n');
  });

  it('cleanup (next message) keeps a user edit made while reverted, and a later revert reports it', async () => {
    h = await harness();
    const { s } = await twoTurns(h);
    expect((await h.svc.undo(s)).ok).toBe(true);
    appendFileSync(path.join(h.root, 'edge.py'), 'USER WORK\n');
    const next = await h.svc.runWithModel(s, scripted([[write('n', 'new.txt', 'n\n')]]), 'another direction');
    expect(next.ok).toBe(true);
    expect(file(h, 'edge.py')).toBe('one\nUSER WORK\n');
    const u = await h.svc.undo(s);
    expect(u.ok && u.value.deleted).toEqual(['new.txt']);
    const u2 = await h.svc.undo(s);
    expect(u2.ok && [u2.value.skipped, u2.value.conflicts]).toEqual([
      ['edge.py'],
      [{ path: 'edge.py', reason: 'changed_after_step' }],
    ]);
    expect(file(h, 'edge.py')).toBe('one\nUSER WORK\n');
  });

  it('a preview of redo changes nothing, even when redo would unrevert', async () => {
    h = await harness();
    const { s } = await twoTurns(h);
    expect((await h.svc.undo(s)).ok).toBe(true);
    const p = await h.svc.redo(s, { preview: true });
    expect(p.ok && [p.value.applied, p.value.restored]).toEqual([false, ['edge.py', 'repro.py']]);
    expect(file(h, 'edge.py')).toBe('one\n');
    expect(file(h, 'repro.py')).toBeUndefined();
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.session.revert).toBeDefined();
  });
});
