/**
 * The user's `lsp` settings reach the language servers the service uses (the rule: "user settings can add a server
 * or turn one off"): the core is wired to appLanguageServers exactly as services.ts wires it. A built-in turned off
 * is reported as such for its files (never as "no errors"); a server added in settings (the bundled JSON server
 * under a new id, for a new extension) is started and its errors reported; saving a changed `lsp` entry shuts the
 * old servers down and the next edit uses the new entry; a bad `lsp` entry is `invalid_input` naming the field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentService } from '../agent/service';
import { cleanupTemp, scripted, tempDir } from '../agent/testing/fixtures';
import { serverGroups, waitGroupsGone } from './server-children';
import { appLanguageServers } from './services-lsp';
import type { AppLanguageServers } from './services-lsp';

const JSON_SERVER = path.resolve(process.cwd(), 'node_modules/.bin/vscode-json-language-server');
const BASE = {
  defaultProvider: 'ollama',
  providers: [{ id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'm' }],
  permissions: [],
};
const EXTRA_JSON = {
  id: 'json-extra',
  command: [JSON_SERVER, '--stdio'],
  extensions: ['.jsonx'],
  languageId: 'json',
  settings: { json: { validate: { enable: true } } },
};

const dirs: string[] = [];
let open: { svc: AgentService; lsp: AppLanguageServers } | undefined;
afterEach(async () => {
  if (open) {
    await open.svc.close();
    await open.lsp.shutdown();
    open = undefined;
  }
  cleanupTemp(...dirs.splice(0));
});

/** A core on a temp data folder whose settings.json is `settings`, with a temp project holding `files`. */
async function start(
  settings: unknown,
  files: Record<string, string>,
): Promise<{ svc: AgentService; lsp: AppLanguageServers; root: string; projectId: string }> {
  const dataDir = tempDir('lspset-data');
  const root = tempDir('lspset-proj');
  dirs.push(dataDir, root);
  writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify(settings));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  const core: { svc?: AgentService } = {};
  const lsp = appLanguageServers(() => core.svc?.getSettings().lsp);
  const opened = await AgentService.open({ dataDir, diagnostics: (project) => lsp.hookFor(project) });
  if (!opened.ok) throw new Error(opened.error.message);
  core.svc = opened.value;
  open = { svc: opened.value, lsp };
  const project = await opened.value.openProject(root);
  if (!project.ok) throw new Error(project.error.message);
  return { svc: opened.value, lsp, root: project.value.root, projectId: project.value.id };
}

/** Runs one scripted edit (read, then edit) in a new session; returns the edit's tool output. */
async function edit(
  svc: AgentService,
  projectId: string,
  filePath: string,
  oldString: string,
  newString: string,
): Promise<string> {
  const s = svc.createSession(projectId, 'lsp settings');
  if (!s.ok) throw new Error(s.error.message);
  const model = scripted([
    [
      { callId: 'r', toolName: 'read', input: { filePath } },
      { callId: 'e', toolName: 'edit', input: { filePath, oldString, newString } },
    ],
  ]);
  const r = await svc.runWithModel(s.value.id, model, 'edit');
  if (!r.ok) throw new Error(r.error.message);
  const view = svc.getSession(s.value.id);
  if (!view.ok) throw new Error(view.error.message);
  const part = view.value.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.tool === 'edit');
  if (part?.type !== 'tool' || part.state !== 'completed')
    throw new Error(`edit did not complete: ${JSON.stringify(part)}`);
  return part.output ?? '';
}

describe('lsp settings through the service', () => {
  it('a built-in turned off (lsp.disabled) is reported as turned off for its files, not as an error list', async () => {
    const x = await start({ ...BASE, lsp: { disabled: ['typescript'] } }, { 'a.ts': 'export const n: number = 1;\n' });
    const output = await edit(x.svc, x.projectId, 'a.ts', '= 1;', "= 'not a number';");
    expect(readFileSync(path.join(x.root, 'a.ts'), 'utf8')).toBe("export const n: number = 'not a number';\n");
    expect(output).toContain(
      'a.ts: diagnostics unavailable — the typescript language server is turned off in settings (lsp.disabled).',
    );
    expect(output).not.toContain('Errors in');
    expect(x.svc.getSettings().lsp?.disabled).toEqual(['typescript']);
  }, 20_000);

  it('a server added in settings is used; after saving settings without it, its process is gone and it is not used', async () => {
    const x = await start({ ...BASE, lsp: { servers: [EXTRA_JSON] } }, { 'conf.jsonx': '{"a": 1}\n' });
    const broken = await edit(x.svc, x.projectId, 'conf.jsonx', '"a": 1', '"a": 1,,');
    expect(broken).toMatch(/Errors in conf\.jsonx \(json-extra\):\n {2}1:\d+ /);
    const groups = serverGroups('vscode-json-language-server');
    expect(groups.length).toBe(1);
    const saved = await x.svc.saveSettings({ ...x.svc.getSettings(), lsp: { servers: [] } });
    expect(saved.ok).toBe(true);
    const after = await edit(x.svc, x.projectId, 'conf.jsonx', '"a": 1,,', '"a": 2,,');
    expect(after).not.toContain('<diagnostics>');
    expect(await waitGroupsGone(groups)).toEqual([]);
  }, 25_000);

  it('an invalid lsp entry is invalid_input naming the field, on load and on save (nothing written)', async () => {
    const dataDir = tempDir('lspset-bad');
    dirs.push(dataDir);
    const file = path.join(dataDir, 'settings.json');
    writeFileSync(file, JSON.stringify({ ...BASE, lsp: { servers: [{ id: 'x', command: [], extensions: ['.x'] }] } }));
    const bad = await AgentService.open({ dataDir });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_input');
      expect(bad.error.message).toContain('at lsp.servers.0.command:');
    }
    writeFileSync(file, JSON.stringify(BASE));
    const x = await start(BASE, {});
    const before = readFileSync(path.join(dataDir, 'settings.json'), 'utf8');
    const saved = await x.svc.saveSettings({ ...BASE, lsp: { disabled: 'typescript' } });
    expect(saved.ok || saved.error.code).toBe('invalid_input');
    expect(!saved.ok && saved.error.message).toContain('at lsp.disabled:');
    expect(readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).toBe(before);
    expect(x.svc.getSettings().lsp).toBeUndefined();
  });
});
