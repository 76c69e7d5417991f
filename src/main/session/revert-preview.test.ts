/**
 * Property (fast-check) over random sessions with user edits in between: for revert / undo / redo, with and
 * without `force`, the preview's restored / deleted / skipped / conflicts equal the real run's that follows it,
 * and the preview changes neither the files nor the boundary. Also: a non-forced history operation never loses
 * a user edit made since the agent last wrote that file (trial bug: repeated undo discarded USER WORK).
 * Real service (SQLite, shadow snapshot store) in temp folders; turns are scripted replay calls.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../shared/errors';
import type { RevertResult } from './revert-types';
import { harness, readTree, scripted, treeText } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

type Op =
  | { kind: 'revert'; to: number; force: boolean }
  | { kind: 'undo'; force: boolean }
  | { kind: 'redo'; force: boolean }
  | { kind: 'unrevert' }
  | { kind: 'edit'; file: number }
  | { kind: 'prompt'; file: number; del: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('revert' as const), to: fc.nat(5), force: fc.boolean() }),
  fc.record({ kind: fc.constant('undo' as const), force: fc.boolean() }),
  fc.record({ kind: fc.constant('redo' as const), force: fc.boolean() }),
  fc.constant({ kind: 'unrevert' as const }),
  fc.record({ kind: fc.constant('edit' as const), file: fc.nat(2) }),
  fc.record({ kind: fc.constant('edit' as const), file: fc.nat(2) }),
  fc.record({ kind: fc.constant('prompt' as const), file: fc.nat(2), del: fc.boolean() }),
);

/** One scripted turn: write f<n>.txt (reading it first when it exists), or delete it with apply_patch. */
async function runTurn(h: Harness, session: string, n: number, del: boolean, label: string): Promise<string> {
  const filePath = `f${n}.txt`;
  const exists = existsSync(path.join(h.root, filePath));
  const call =
    del && exists
      ? {
          callId: 'p',
          toolName: 'apply_patch',
          input: { patchText: `*** Begin Patch\n*** Delete File: ${filePath}\n*** End Patch` },
        }
      : { callId: 'w', toolName: 'write', input: { filePath, content: `${label}\n` } };
  const calls = exists ? [{ callId: 'r', toolName: 'read', input: { filePath } }, call] : [call];
  const r = await h.svc.runWithModel(session, scripted([calls]), label);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.userMessageId;
}

const lists = (r: Result<RevertResult>): unknown =>
  r.ok
    ? { restored: r.value.restored, deleted: r.value.deleted, skipped: r.value.skipped, conflicts: r.value.conflicts }
    : r.error.code;

async function check(ops: Op[]): Promise<void> {
  const h = await harness();
  try {
    const session = h.newSession();
    const turns: string[] = [];
    /** User lines appended since the agent last wrote their file: file → markers. */
    const pending = new Map<string, string[]>();
    let label = 0;
    for (let i = 0; i < 3; i++) turns.push(await runTurn(h, session, i, false, `turn ${++label}`));
    for (const o of ops) {
      if (o.kind === 'edit') {
        const marker = `USER ${++label}`;
        appendFileSync(path.join(h.root, `f${o.file}.txt`), `${marker}\n`);
        pending.set(`f${o.file}.txt`, [...(pending.get(`f${o.file}.txt`) ?? []), marker]);
        continue;
      }
      if (o.kind === 'prompt') {
        const view = h.svc.getSession(session);
        const boundary = view.ok ? view.value.session.revert?.messageId : undefined;
        if (boundary !== undefined) turns.length = turns.indexOf(boundary); // cleanup drops what lay after it
        turns.push(await runTurn(h, session, o.file, o.del, `turn ${++label}`));
        pending.delete(`f${o.file}.txt`);
        continue;
      }
      const force = o.kind !== 'unrevert' && o.force;
      const run = (preview: boolean): Promise<Result<RevertResult>> => {
        const opts = { preview, force };
        if (o.kind === 'revert') return h.svc.revert(session, turns[o.to % turns.length] as string, undefined, opts);
        if (o.kind === 'undo') return h.svc.undo(session, opts);
        if (o.kind === 'redo') return h.svc.redo(session, opts);
        return h.svc.unrevert(session);
      };
      const before = treeText(readTree(h.root));
      const boundaryBefore = (() => {
        const v = h.svc.getSession(session);
        return v.ok ? v.value.session.revert : undefined;
      })();
      if (o.kind !== 'unrevert') {
        const preview = await run(true);
        expect(treeText(readTree(h.root))).toEqual(before);
        const v = h.svc.getSession(session);
        expect(v.ok && v.value.session.revert).toEqual(boundaryBefore);
        const real = await run(false);
        expect(lists(real)).toEqual(lists(preview));
      } else {
        await run(false);
      }
      for (const [file, markers] of pending) {
        const abs = path.join(h.root, file);
        const text = existsSync(abs) ? readFileSync(abs, 'utf8') : '';
        const kept = markers.filter((m) => text.includes(m));
        if (!force) expect(kept).toEqual(markers);
        pending.set(file, kept);
      }
    }
  } finally {
    await h.close();
  }
}

describe('revert preview equals the real run (fast-check)', () => {
  it('restored / deleted / skipped / conflicts agree; previews change nothing; user edits survive', async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), check), { numRuns: 12 });
  }, 120_000);

  it('hand-picked: undo, edit, undo, redo, redo, edit, revert to first, unrevert', async () => {
    await check([
      { kind: 'undo', force: false },
      { kind: 'edit', file: 2 },
      { kind: 'undo', force: false },
      { kind: 'redo', force: false },
      { kind: 'redo', force: false },
      { kind: 'edit', file: 0 },
      { kind: 'revert', to: 0, force: false },
      { kind: 'unrevert' },
    ]);
  }, 60_000);
});
