/**
 * The question a repetition stop asks (loop-decision.ts), through the real service, store, tools and bash, with
 * every permission on allow and a scripted model whose requests are recorded: the stop is stored as a waiting
 * `loop-stop` part (the 5th call never ran); it survives a restart of the service; "Go on" starts a new turn whose
 * user message tells the model plainly that the user let it go on, with the repetition count started afresh;
 * "Stop here" sends nothing; each stop is answered at most once (also when two answers race); a later message
 * supersedes it; unknown, reverted and busy cases answer typed errors and change nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { AgentService } from './service';
import { cleanupTemp, harness, untilAborted } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { stepModel, toolResults } from './testing/step-model';
import type { ScriptedStep } from './testing/step-model';
import { continueText } from './loop-decision';
import { messageText } from './context/request-text';

const open: Harness[] = [];
const services: AgentService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  for (const h of open.splice(0)) await h.close();
  cleanupTemp(...dirs.splice(0));
});

const ALLOW_ALL = [{ permission: '*' as const, pattern: '*', action: 'allow' as const }];
const SAME: ScriptedStep = {
  calls: [{ toolName: 'bash', input: { command: 'echo x >> count.txt', description: 'count' } }],
};

async function allowAll(): Promise<Harness> {
  const h = await harness();
  open.push(h);
  const saved = await h.svc.saveSettings({ ...h.svc.getSettings(), permissions: ALLOW_ALL });
  if (!saved.ok) throw new Error(saved.error.message);
  return h;
}

type LoopStop = Extract<Part, { type: 'loop-stop' }>;

function stops(svc: AgentService, s: string): LoopStop[] {
  return svc.store
    .messages(s)
    .flatMap((m) => m.parts)
    .filter((p): p is LoopStop => p.type === 'loop-stop');
}

const lines = (h: Harness): number => readFileSync(path.join(h.root, 'count.txt'), 'utf8').split('\n').length - 1;

/** A session whose first turn repeated the same bash call until the rule stopped it; answers the stop part. */
async function stopped(h: Harness): Promise<{ s: string; stop: LoopStop }> {
  writeFileSync(path.join(h.root, 'count.txt'), '');
  const s = h.newSession();
  const { model, requests } = stepModel([SAME, SAME, SAME, SAME, SAME, { text: 'never' }]);
  const r = await h.svc.runWithModel(s, model, 'count to ten');
  expect(r.ok && [r.value.finishReason, r.value.error?.code]).toEqual(['loop-detected', 'loop_detected']);
  expect(requests).toHaveLength(5);
  expect(lines(h)).toBe(4); // the 5th never ran
  const [stop] = stops(h.svc, s);
  expect(stop).toMatchObject({
    tool: 'bash',
    input: { command: 'echo x >> count.txt', description: 'count' },
    repeats: 5,
  });
  expect(stop?.decision).toBeUndefined();
  return { s, stop: stop as LoopStop };
}

describe('a repetition stop asks whether to go on', () => {
  it('"Go on": a new turn tells the model plainly, and the repetition count starts afresh', async () => {
    const h = await allowAll();
    const { s, stop } = await stopped(h);
    const next = stepModel([SAME, SAME, SAME, SAME, { text: 'done, with a different approach next time' }]);
    const r = await h.svc.answerLoop(s, stop.id, 'continue', { languageModel: next.model });
    expect(r.ok && r.value.decision).toBe('continue');
    const ended = r.ok ? await r.value.turn?.done : undefined;
    expect(ended && [ended.finishReason, ended.error]).toEqual(['stop', undefined]);
    // what the model was sent on continuing: the stopped turn (its refused 5th call), then the plain words
    const first = next.requests[0];
    const users = (first?.prompt ?? []).filter((m) => m.role === 'user').map(messageText);
    expect(users).toEqual(['count to ten', continueText(stop)]);
    expect(users[1]).toContain('the same call 5 times in a row: bash with the input {"command":"echo x >> count.txt"');
    expect(users[1]).toContain('The user saw the repetition warning and lets you go on.');
    expect(toolResults(first as never).at(-1)?.text).toMatch(/^Error \(loop_detected\): Not run:/);
    // four more identical calls run (notice at 3 and 4 of the NEW turn), nothing is stopped
    expect(lines(h)).toBe(8);
    const notices = toolResults(next.requests[4] as never)
      .slice(-4)
      .map((t) => t.text.includes('Notice: you have made this exact call'));
    expect(notices).toEqual([false, false, true, true]);
    expect(stops(h.svc, s).map((p) => p.decision)).toEqual(['continue']);
    // at most once
    const again = await h.svc.answerLoop(s, stop.id, 'continue', { languageModel: stepModel([]).model });
    expect(again.ok ? 'ok' : [again.error.code, again.error.data]).toEqual(['conflict', { decision: 'continue' }]);
    const stopLate = await h.svc.answerLoop(s, stop.id, 'stop');
    expect(stopLate.ok ? 'ok' : stopLate.error.code).toBe('conflict');
  });

  it('"Stop here": nothing is sent, nothing runs, and the stop cannot be answered again', async () => {
    const h = await allowAll();
    const { s, stop } = await stopped(h);
    const model = stepModel([SAME]);
    const r = await h.svc.answerLoop(s, stop.id, 'stop', { languageModel: model.model });
    expect(r.ok && r.value).toEqual({ decision: 'stop' });
    expect(model.requests).toHaveLength(0);
    expect(lines(h)).toBe(4);
    expect(stops(h.svc, s).map((p) => p.decision)).toEqual(['stop']);
    const again = await h.svc.answerLoop(s, stop.id, 'continue', { languageModel: model.model });
    expect(again.ok ? 'ok' : again.error.code).toBe('conflict');
    expect(model.requests).toHaveLength(0);
    expect(h.svc.store.messages(s).filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('survives a restart of the service, and is answered there', async () => {
    const h = await harness();
    dirs.push(h.dataDir, h.root);
    await h.svc.saveSettings({ ...h.svc.getSettings(), permissions: ALLOW_ALL });
    const { s, stop } = await stopped(h);
    await h.svc.close();
    const reopened = await AgentService.open({ dataDir: h.dataDir });
    if (!reopened.ok) throw new Error(reopened.error.message);
    const svc = reopened.value;
    services.push(svc);
    await svc.openProject(h.root);
    const view = svc.getSession(s);
    const parts = view.ok ? view.value.messages.flatMap((m) => m.parts) : [];
    expect(parts.find((p) => p.id === stop.id)).toEqual(stop);
    const next = stepModel([{ text: 'going on' }]);
    const r = await svc.answerLoop(s, stop.id, 'continue', { languageModel: next.model });
    const ended = r.ok ? await r.value.turn?.done : undefined;
    expect(ended?.finishReason).toBe('stop');
    expect(messageText(next.requests[0]?.prompt.at(-1))).toBe(continueText(stop));
  });

  it('two answers at once: one turn starts, the other is refused', async () => {
    const h = await allowAll();
    const { s, stop } = await stopped(h);
    const a = stepModel([{ text: 'a' }]);
    const b = stepModel([{ text: 'b' }]);
    const [ra, rb] = await Promise.all([
      h.svc.answerLoop(s, stop.id, 'continue', { languageModel: a.model }),
      h.svc.answerLoop(s, stop.id, 'continue', { languageModel: b.model }),
    ]);
    const oks = [ra, rb].filter((r) => r.ok);
    expect(oks).toHaveLength(1);
    const refused = [ra, rb].find((r) => !r.ok);
    expect(['busy', 'conflict']).toContain(refused && !refused.ok ? refused.error.code : 'ok');
    for (const r of oks) if (r.ok) await r.value.turn?.done;
    expect(a.requests.length + b.requests.length).toBe(1);
    const users = h.svc.store.messages(s).filter((m) => m.role === 'user');
    expect(users.map((m) => h.svc.store.messageText(m.id))).toEqual(['count to ten', continueText(stop)]);
  });

  it('a new message instead supersedes it; then it cannot resume anything', async () => {
    const h = await allowAll();
    const { s, stop } = await stopped(h);
    await h.svc.runWithModel(s, stepModel([{ text: 'ok, something else' }]).model, 'do something else');
    expect(stops(h.svc, s).map((p) => p.decision)).toEqual(['superseded']);
    const model = stepModel([SAME]);
    const r = await h.svc.answerLoop(s, stop.id, 'continue', { languageModel: model.model });
    expect(r.ok ? 'ok' : [r.error.code, r.error.data]).toEqual(['conflict', { decision: 'superseded' }]);
    expect(model.requests).toHaveLength(0);
  });

  it('typed errors, nothing changed: unknown stop or session, another kind of part, a turn running, reverted', async () => {
    const h = await allowAll();
    const { s, stop } = await stopped(h);
    const model = stepModel([SAME]);
    const code = async (sessionId: string, partId: string) => {
      const r = await h.svc.answerLoop(sessionId, partId, 'continue', { languageModel: model.model });
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code(s, 'prt_nope')).toBe('not_found');
    expect(await code('ses_nope', stop.id)).toBe('invalid_input');
    const tool = h.svc.store
      .messages(s)
      .flatMap((m) => m.parts)
      .find((p) => p.type === 'tool');
    expect(await code(s, tool?.id ?? '')).toBe('not_found');
    // busy while another turn of the session runs
    const running = await h.svc.startTurn(s, 'wait', { languageModel: untilAborted() });
    expect(running.ok).toBe(true);
    expect(await code(s, stop.id)).toBe('busy');
    h.svc.stop(s);
    if (running.ok) await running.value.turn.done;
    // that turn superseded the stop; a fresh stop, then reverted away: not_found; unrevert: it waits again
    const second = await stopped(h);
    const userId = h.svc.store.messages(second.s).find((m) => m.role === 'user')?.id ?? '';
    expect((await h.svc.revert(second.s, userId)).ok).toBe(true);
    expect(await code(second.s, second.stop.id)).toBe('not_found');
    expect((await h.svc.unrevert(second.s)).ok).toBe(true);
    expect(stops(h.svc, second.s).map((p) => p.decision)).toEqual([undefined]);
    expect(model.requests).toHaveLength(0);
  });
});
