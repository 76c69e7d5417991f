/**
 * Keys go to the provider client only. Real services (web transport), a scripted OpenAI-compatible server that
 * records every Authorization header, real children: the bash tool's `env` and the JSON language server's
 * /proc/<pid>/environ must hold neither a key stored in the app's secret store nor the variable a provider names
 * as its key source (`apiKeyEnv`), set in this process's environment as a user's shell would. And each provider
 * gets its own key — never one key for all.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent } from '../../shared/contract';
import { scriptedOpenAI } from '../agent/testing/openai-server';
import type { ScriptedServer } from '../agent/testing/openai-server';
import { processesInGroups } from '../lsp/proc-table';
import { serverGroups } from './server-children';
import { servicesFixture, type ServicesFixture } from './services-fixture';

const STORED_KEY = 'stored-key-5d2e8b1c9a';
const PARENT_VAR = 'LLAMA_BOX_VALUE'; // a name no secret-name rule knows: only the settings say it holds a key
const PARENT_VALUE = 'parent-env-value-7f3a9c';
const ALLOW = [
  { permission: 'bash', pattern: '*', action: 'allow' },
  { permission: 'edit', pattern: '**', action: 'allow' },
];

const servers: ScriptedServer[] = [];
let fixture: ServicesFixture | undefined;
const savedEnv = new Map<string, string | undefined>();

function setEnv(name: string, value: string): void {
  if (!savedEnv.has(name)) savedEnv.set(name, process.env[name]);
  process.env[name] = value;
}

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  for (const s of servers.splice(0)) await s.close();
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  savedEnv.clear();
});

/** Sends `text` in a new session of a fresh project and resolves when the turn is over (idle or error). */
async function runTurn(f: ServicesFixture, text: string): Promise<string> {
  const root = await mkdtemp(join(f.temp, 'proj-'));
  const project = await f.router.handle('projects.open', { root });
  if (!project.ok) throw new Error(project.error.message);
  const session = await f.router.handle('sessions.create', { projectId: (project.value as { id: string }).id });
  if (!session.ok) throw new Error(session.error.message);
  const sessionId = (session.value as { id: string }).id;
  const over = new Promise<void>((resolve) => {
    const off = f.services.subscribe((e: AnyEvent) => {
      if (e.type === 'session.state' && e.sessionId === sessionId && e.state !== 'busy') {
        off();
        resolve();
      }
    });
  });
  const started = await f.router.handle('chat.prompt', { sessionId, text });
  if (!started.ok) throw new Error(started.error.message);
  await over;
  return sessionId;
}

/** settings.get's answer. */
async function settingsNow(f: ServicesFixture): Promise<{ version: string; settings: { providers: unknown[] } }> {
  const r = await f.router.handle('settings.get', {});
  if (!r.ok) throw new Error(r.error.message);
  return r.value as { version: string; settings: { providers: unknown[] } };
}

/** Saves the settings as they are with `keys` stored (and `defaultProvider` when given), as the Settings screen does. */
async function saveKeys(f: ServicesFixture, keys: Record<string, string>, defaultProvider?: string) {
  const now = await settingsNow(f);
  const settings = { ...now.settings, ...(defaultProvider ? { defaultProvider } : {}) };
  return f.router.handle('settings.save', { settings, base: now.version, keys });
}

function toolOutput(f: ServicesFixture, sessionId: string, tool: string): Promise<string> {
  return f.router.handle('sessions.get', { sessionId }).then((r) => {
    if (!r.ok) throw new Error(r.error.message);
    const parts = (r.value as { messages: { parts: { type: string; tool?: string; output?: string }[] }[] }).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === 'tool' && p.tool === tool);
    return parts.map((p) => p.output ?? '').join('\n');
  });
}

describe('keys reach the provider client only', () => {
  test('bash `env` and a language server see neither the stored key nor the apiKeyEnv variable', async () => {
    setEnv(PARENT_VAR, PARENT_VALUE);
    const model = await scriptedOpenAI([
      { tool: 'bash', args: { command: 'env', description: 'print the environment' } },
      { tool: 'write', args: { filePath: 'broken.json', content: '{"a": 1,,}\n' } },
      { text: 'done' },
    ]);
    servers.push(model);
    fixture = await servicesFixture('keys', {
      settings: {
        defaultProvider: 'custom',
        providers: [
          { id: 'custom', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' },
          { id: 'ollama', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm', apiKeyEnv: PARENT_VAR },
        ],
        permissions: ALLOW,
      },
    });
    const saved = await saveKeys(fixture, { custom: STORED_KEY });
    expect(saved).toMatchObject({ ok: true, value: { keys: { custom: { source: 'stored' } } } });
    const sessionId = await runTurn(fixture, 'show me the environment, then write broken.json');

    const env = await toolOutput(fixture, sessionId, 'bash');
    expect(env).toMatch(/^PATH=/m); // the command ran and printed the environment
    expect(env).not.toContain(STORED_KEY);
    expect(env).not.toContain(PARENT_VALUE);
    expect(env).not.toContain(`${PARENT_VAR}=`);
    expect(await toolOutput(fixture, sessionId, 'write')).toMatch(/Errors in broken\.json/);

    const [server] = serverGroups('vscode-json-language-server');
    expect(server).toBeDefined();
    // Every process of the server's group (in its own PID namespace: `unshare`, the namespace's init, the server).
    const environ = processesInGroups([server as number]).flatMap((p) =>
      readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0'),
    );
    expect(environ.some((v) => v.startsWith('PATH='))).toBe(true);
    expect(environ.filter((v) => v.includes(STORED_KEY) || v.includes(PARENT_VALUE))).toEqual([]);
    expect(environ.filter((v) => v.startsWith(`${PARENT_VAR}=`) || v.startsWith('LANDFALL_KEY_'))).toEqual([]);

    // The key went where it belongs: every request to the model carried it, and it never entered process.env.
    expect(model.requests.length).toBe(3);
    expect(new Set(model.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${STORED_KEY}`]));
    expect(Object.values(process.env)).not.toContain(STORED_KEY);
  }, 40_000);

  test('each provider gets its own apiKeyEnv key, never one key for all (Test connection and a turn)', async () => {
    const a = await scriptedOpenAI([{ text: 'ready' }]);
    const b = await scriptedOpenAI([{ text: 'ready' }]);
    servers.push(a, b);
    setEnv('LANDFALL_API_KEY', 'one-key-for-every-provider');
    setEnv('BOX_A_VALUE', 'key-for-box-a-111');
    setEnv('BOX_B_VALUE', 'key-for-box-b-222');
    fixture = await servicesFixture('keys-two', {
      languageServers: false,
      settings: {
        defaultProvider: 'ollama',
        providers: [
          { id: 'ollama', kind: 'openai-compatible', baseURL: a.baseURL, model: 'ma', apiKeyEnv: 'BOX_A_VALUE' },
          { id: 'lmstudio', kind: 'openai-compatible', baseURL: b.baseURL, model: 'mb', apiKeyEnv: 'BOX_B_VALUE' },
        ],
        permissions: [],
      },
    });
    for (const p of (await settingsNow(fixture)).settings.providers)
      expect(await fixture.router.handle('settings.test', { provider: p })).toMatchObject({ ok: true });
    await runTurn(fixture, 'hello a');
    const switched = await saveKeys(fixture, {}, 'lmstudio');
    expect(switched).toMatchObject({
      ok: true,
      value: { keys: { lmstudio: { source: 'environment', env: 'BOX_B_VALUE' } } },
    });
    await runTurn(fixture, 'hello b');
    expect(a.requests.map((r) => [r.body.model, r.authorization])).toEqual([
      ['ma', 'Bearer key-for-box-a-111'],
      ['ma', 'Bearer key-for-box-a-111'],
    ]);
    expect(b.requests.map((r) => [r.body.model, r.authorization])).toEqual([
      ['mb', 'Bearer key-for-box-b-222'],
      ['mb', 'Bearer key-for-box-b-222'],
    ]);
  }, 30_000);
});
