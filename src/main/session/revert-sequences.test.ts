/**
 * Random revert / unrevert / undo / redo / new-prompt sequences (fast-check) over real sessions: a real service
 * (SQLite, shadow snapshot store) driven by scripted replay turns. A model of the session (the turns, the
 * boundary, and the project files read straight from disk after each turn) predicts the files after every
 * operation; the real files must always equal that independent snapshot of the expected point, and a file the
 * user writes by hand between operations (never touched by the agent) is never changed by any of them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness, readTree, scripted, treeText } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

type Op =
  | { kind: 'user'; n: number }
  | { kind: 'revert'; to: number }
  | { kind: 'unrevert' }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'prompt'; file: number; del: boolean };

interface Turn {
  userId: string;
  text: string;
  after: Record<string, string>;
}

/** One scripted turn: write f<n>.txt with a fresh line, or delete it with apply_patch when it exists. */
async function runTurn(h: Harness, session: string, n: number, del: boolean, label: string): Promise<string> {
  const filePath = `f${n}.txt`;
  const exists = Object.hasOwn(treeText(readTree(h.root)), filePath);
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

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('revert' as const), to: fc.nat(5) }),
  fc.constant({ kind: 'unrevert' as const }),
  fc.constant({ kind: 'undo' as const }),
  fc.constant({ kind: 'redo' as const }),
  fc.record({ kind: fc.constant('prompt' as const), file: fc.nat(2), del: fc.boolean() }),
  fc.record({ kind: fc.constant('user' as const), n: fc.nat(9) }),
);

/** The agent's files (user.txt, written by hand between turns, is checked on its own: nothing may touch it). */
function agentFiles(root: string): Record<string, string> {
  const { 'user.txt': _user, ...rest } = treeText(readTree(root));
  return rest;
}

/** What the session should look like: its turns (files after each, read from disk) and the revert boundary. */
class Expected {
  turns: Turn[] = [];
  boundary: number | undefined;
  constructor(private readonly base: Record<string, string>) {}
  /** Files before turn i (after turn i-1). */
  before(i: number): Record<string, string> {
    return i === 0 ? this.base : (this.turns[i - 1] as Turn).after;
  }
  /** Files where the session stands: at the boundary, else after its last turn. */
  files(): Record<string, string> {
    return this.before(this.boundary ?? this.turns.length);
  }
}

/** Run one history operation on the service and move the model's boundary the way the operation should. */
async function applyHistory(
  h: Harness,
  session: string,
  m: Expected,
  o: Exclude<Op, { kind: 'prompt' | 'user' }>,
): Promise<void> {
  const outcome = (r: { ok: boolean; error?: { code: string } }): string => (r.ok ? 'ok' : (r.error?.code ?? ''));
  if (o.kind === 'revert') {
    const to = o.to % m.turns.length;
    expect(outcome(await h.svc.revert(session, (m.turns[to] as Turn).userId))).toBe('ok');
    m.boundary = to;
  } else if (o.kind === 'unrevert') {
    expect(outcome(await h.svc.unrevert(session))).toBe(m.boundary === undefined ? 'invalid_input' : 'ok');
    m.boundary = undefined;
  } else if (o.kind === 'undo') {
    const target = (m.boundary ?? m.turns.length) - 1;
    const r = await h.svc.undo(session);
    expect(outcome(r)).toBe(target < 0 ? 'invalid_input' : 'ok');
    if (target < 0) return;
    m.boundary = target;
    expect(r.ok && r.value.text).toBe((m.turns[target] as Turn).text);
  } else {
    expect(outcome(await h.svc.redo(session))).toBe(m.boundary === undefined ? 'invalid_input' : 'ok');
    if (m.boundary !== undefined) m.boundary = m.boundary + 1 >= m.turns.length ? undefined : m.boundary + 1;
  }
}

async function check(ops: Op[]): Promise<void> {
  const h = await harness();
  try {
    const session = h.newSession();
    const m = new Expected(agentFiles(h.root));
    let userText: string | undefined;
    let label = 0;
    const prompt = async (file: number, del: boolean): Promise<void> => {
      if (m.boundary !== undefined) m.turns.length = m.boundary; // cleanup: what lay after the boundary is gone
      m.boundary = undefined;
      const text = `turn ${++label}`;
      const userId = await runTurn(h, session, file, del, text);
      m.turns.push({ userId, text, after: agentFiles(h.root) });
    };
    for (let i = 0; i < 3; i++) await prompt(i, false);
    for (const o of ops) {
      if (o.kind === 'prompt') await prompt(o.file, o.del);
      else if (o.kind === 'user') writeFileSync(path.join(h.root, 'user.txt'), (userText = `user ${o.n}\n`));
      else await applyHistory(h, session, m, o);
      expect(agentFiles(h.root)).toEqual(m.files());
      expect(treeText(readTree(h.root))['user.txt']).toBe(userText);
      const view = h.svc.getSession(session);
      expect(view.ok && view.value.session.revert?.messageId).toBe(
        m.boundary === undefined ? undefined : (m.turns[m.boundary] as Turn).userId,
      );
    }
  } finally {
    await h.close();
  }
}

describe('revert sequences (fast-check over scripted sessions)', () => {
  it('files always equal the independent snapshot of the expected point', async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), check), { numRuns: 30 });
  }, 120_000);

  it('a hand-picked sequence: undo twice, redo, new prompt, unrevert refused, revert to the first', async () => {
    await check([
      { kind: 'undo' },
      { kind: 'undo' },
      { kind: 'redo' },
      { kind: 'prompt', file: 1, del: true },
      { kind: 'unrevert' },
      { kind: 'revert', to: 0 },
      { kind: 'redo' },
      { kind: 'redo' },
    ]);
  }, 60_000);
});
