/**
 * Modes and models through the real loop, store, gate and tools (every permission set to allow, so what stops a
 * call is the mode, not a rule): plan mode withholds edit / write / multiedit / apply_patch (refused, nothing
 * written, the model told which tools it has) and asks before a bash line that may change files; a switch of mode
 * or model made while a step runs takes effect at the next step; a stale tool call is refused naming the current
 * tools; modes from settings; the mode stored on every message and the model on every step.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { harness } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { scriptedOpenAI } from './testing/openai-server';
import type { ScriptedServer } from './testing/openai-server';
import { offeredTools, stepModel, toolResults } from './testing/step-model';
import { SYSTEM_PROMPT } from './defaults';
import { BUILT_IN_MODES } from './modes';

let h: Harness | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  h = undefined;
  server = undefined;
});

const ALLOW_ALL = [{ permission: '*' as const, pattern: '*', action: 'allow' as const }];

async function allowAll(extra: Record<string, unknown> = {}): Promise<Harness> {
  const made = await harness();
  const saved = await made.svc.saveSettings({ ...made.svc.getSettings(), permissions: ALLOW_ALL, ...extra });
  if (!saved.ok) throw new Error(saved.error.message);
  return made;
}

function parts(hh: Harness, sessionId: string): Part[] {
  const v = hh.svc.getSession(sessionId);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts);
}

const PLAN_OFFERED = ['read', 'list', 'glob', 'grep', 'bash', 'question', 'todowrite', 'todoread', 'webfetch'];
const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-keep\n+gone\n*** End Patch';

describe('plan mode', () => {
  it('refuses edit, write, multiedit, apply_patch and asks before rm: no byte changes, the model is told why', async () => {
    h = await allowAll();
    const s = h.newSession();
    const file = path.join(h.root, 'a.txt');
    writeFileSync(file, 'keep\n');
    expect(h.svc.setTalk(s, { mode: 'plan' }).ok).toBe(true);
    const asked: string[][] = [];
    h.svc.on((e) => {
      if (e.type !== 'permission.asked') return;
      asked.push(e.reasons ?? []);
      h?.svc.answerPermission(e.requestId, { answer: 'reject', reason: 'plan only' });
    });
    const { model, requests } = stepModel([
      { calls: [{ toolName: 'read', input: { filePath: 'a.txt' } }] },
      { calls: [{ toolName: 'edit', input: { filePath: 'a.txt', oldString: 'keep', newString: 'gone' } }] },
      { calls: [{ toolName: 'write', input: { filePath: 'a.txt', content: 'gone\n' } }] },
      { calls: [{ toolName: 'multiedit', input: { filePath: 'a.txt', edits: [] } }] },
      { calls: [{ toolName: 'apply_patch', input: { patchText: PATCH } }] },
      { calls: [{ toolName: 'bash', input: { command: 'rm a.txt' } }] },
      { calls: [{ toolName: 'bash', input: { command: 'ls -la' } }] },
      { text: 'Plan: change a.txt.' },
    ]);
    const r = await h.svc.runWithModel(s, model, 'make a plan');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(readFileSync(file, 'utf8')).toBe('keep\n');
    for (const req of requests) expect(offeredTools(req as never)).toEqual(PLAN_OFFERED);
    const system = requests[0]?.prompt[0];
    // the system prompt, the session's baseline (context/baseline.ts), then the plan mode's instructions
    const content = (system as { content: string }).content;
    expect(system?.role).toBe('system');
    expect(content.startsWith(`${SYSTEM_PROMPT}\n`)).toBe(true);
    expect(content.endsWith(`\n\n${BUILT_IN_MODES[1]?.instructions}`)).toBe(true);
    expect(content).toContain('Working directory:');
    const results = toolResults(requests[7] as never).map((t) => t.text);
    const refused = (tool: string): string =>
      `Error (tool_not_offered): Not run: ${tool} is not among the tools offered in this request. The tools offered now are: ${PLAN_OFFERED.join(', ')}.`;
    expect(results.slice(1, 5)).toEqual([
      refused('edit'),
      refused('write'),
      refused('multiedit'),
      refused('apply_patch'),
    ]);
    expect(results[5]).toContain('Error (permission_denied): The user did not allow: rm a.txt');
    expect(results[5]).toContain('plan only');
    expect(results[6]).toContain('a.txt');
    // rm was asked although every rule allows, with the reason; ls ran without a question
    expect(asked).toEqual([
      [
        'plan mode is read-only and this command may change files: rm is not one of the commands plan mode runs unasked',
      ],
    ]);
    const starts = parts(h, s).filter((p) => p.type === 'step-start');
    expect(new Set(starts.map((p) => p.type === 'step-start' && p.mode))).toEqual(new Set(['plan']));
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.messages.map((m) => [m.role, m.mode])).toEqual([
      ['user', 'plan'],
      ['assistant', 'plan'],
    ]);
  });

  it('a switch to build while a step runs takes effect at the next step', async () => {
    h = await allowAll();
    const s = h.newSession();
    h.svc.setTalk(s, { mode: 'plan' });
    const write = { toolName: 'write', input: { filePath: 'b.txt', content: 'b\n' } };
    const { model, requests } = stepModel([
      () => {
        // the user presses Tab while the model answers step 1
        expect(h?.svc.setTalk(s, { mode: 'build' }).ok).toBe(true);
        return { calls: [write] };
      },
      { calls: [write] },
      { text: 'written' },
    ]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(offeredTools(requests[0] as never)).not.toContain('write');
    expect(offeredTools(requests[1] as never)).toContain('write');
    const tools = parts(h, s).filter((p) => p.type === 'tool');
    expect(tools.map((p) => p.type === 'tool' && (p.error?.code ?? p.state))).toEqual([
      'tool_not_offered',
      'completed',
    ]);
    expect(readFileSync(path.join(h.root, 'b.txt'), 'utf8')).toBe('b\n');
    const starts = parts(h, s).filter((p) => p.type === 'step-start');
    expect(starts.map((p) => p.type === 'step-start' && p.mode)).toEqual(['plan', 'build', 'build']);
    expect(h.svc.getTalk(s).mode).toBe('build');
  });

  it('a call to a tool the request did not offer is refused, naming the current tools, and nothing runs', async () => {
    h = await allowAll();
    const s = h.newSession();
    const { model, requests } = stepModel([
      { calls: [{ toolName: 'rename_file', input: { from: 'a', to: 'b' } }] },
      { text: 'ok' },
    ]);
    await h.svc.runWithModel(s, model, 'go');
    const all = offeredTools(requests[0] as never);
    const [result] = toolResults(requests[1] as never);
    expect(result?.text).toBe(
      `Error (tool_not_offered): Not run: rename_file is not among the tools offered in this request. The tools offered now are: ${all.join(', ')}.`,
    );
  });
});

describe('modes from settings and the picker', () => {
  it('a user mode offers its tools with its instructions; bad modes are refused with the field named', async () => {
    const review = { name: 'review', tools: ['read', 'grep'], instructions: 'Mode: review. Only report problems.' };
    h = await allowAll({ modes: [review] });
    const s = h.newSession();
    expect(h.svc.getTalk(s).modes.map((m) => m.name)).toEqual(['build', 'plan', 'review']);
    h.svc.setTalk(s, { mode: 'review' });
    const { model, requests } = stepModel([{ text: 'fine' }]);
    await h.svc.runWithModel(s, model, 'look');
    expect(offeredTools(requests[0] as never)).toEqual(['read', 'grep']);
    expect(JSON.stringify(requests[0]?.prompt[0])).toContain('Only report problems.');
    const bad = await h.svc.saveSettings({ ...h.svc.getSettings(), modes: [{ ...review, name: 'plan' }] });
    expect(!bad.ok && [bad.error.code, bad.error.message.includes('modes.0.name')]).toEqual(['invalid_input', true]);
    const twice = await h.svc.saveSettings({ ...h.svc.getSettings(), modes: [review, review] });
    expect(!twice.ok && twice.error.message).toContain('two modes share a name');
    const unknown = h.svc.setTalk(s, { mode: 'nope' });
    expect(!unknown.ok && [unknown.error.code, unknown.error.hint]).toEqual([
      'invalid_input',
      'Use one of: build, plan, review, or add the mode in settings.',
    ]);
  });

  it('a model switch while a step runs: the next request goes to the new model, each step records its model', async () => {
    server = await scriptedOpenAI([{ tool: 'list', args: { path: '.' } }, { text: 'listed' }]);
    const providers = [
      { id: 'first', kind: 'openai-compatible' as const, baseURL: server.baseURL, model: 'model-a' },
      { id: 'second', kind: 'openai-compatible' as const, baseURL: server.baseURL, model: 'model-b' },
    ];
    h = await allowAll({ providers, defaultProvider: 'first' });
    const s = h.newSession();
    h.svc.on((e) => {
      if (e.type === 'part.updated' && e.part.type === 'tool' && e.part.state === 'running')
        h?.svc.setTalk(s, { provider: 'second' });
    });
    const r = await h.svc.prompt(s, 'go');
    expect(r.ok && r.value.finishReason).toBe('stop');
    expect(server.requests.map((q) => q.body.model)).toEqual(['model-a', 'model-b']);
    const starts = parts(h, s).filter((p) => p.type === 'step-start');
    expect(starts.map((p) => p.type === 'step-start' && p.model)).toEqual(['first/model-a', 'second/model-b']);
    expect(h.svc.getTalk(s)).toMatchObject({ provider: 'second', model: 'model-b' });
    const bad = h.svc.setTalk(s, { provider: 'elsewhere' });
    expect(!bad.ok && bad.error.code).toBe('invalid_input');
  });
});
