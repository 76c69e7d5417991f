/**
 * The other built-in servers, real processes: pyright (introduce / fix), the JSON server (syntax error), HTML, YAML,
 * and bash-language-server with shellcheck; then the failure paths: a server that is not installed (reported
 * as unavailable, looked up once, nothing hangs), a server that keeps crashing (restarted with backoff, then
 * marked broken), and a server stopped after its idle period. One manager serves the real-server cases.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspManager } from './manager';
import { processesInGroups } from './proc-table';

let root: string;
let manager: LspManager;

async function put(rel: string, text: string): Promise<string> {
  const abs = path.join(root, rel);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, text);
  return abs;
}

function make(extra: Partial<Parameters<typeof LspManager.create>[0]> = {}): LspManager {
  const created = LspManager.create({ root, timeoutScale: 2, log: () => undefined, ...extra });
  if (!created.ok) throw new Error(created.error.message);
  return created.value;
}

beforeAll(async () => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-lsp-')));
  manager = make();
  // Warm the servers up once, as reads would.
  manager.touch(await put('app/main.py', 'count: int = 1\n'));
  manager.touch(await put('conf/settings.json', '{"a": 1}\n'));
});

afterAll(async () => {
  await manager?.shutdown();
  await rm(root, { recursive: true, force: true });
});

describe('pyright', () => {
  it('reports an introduced type error on its line, then nothing after the fix', async () => {
    const abs = await put('app/main.py', 'count: int = 1\nname: str = 2\n');
    const broke = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(broke.text).toContain('Errors in app/main.py (pyright):');
    expect(broke.text).toMatch(/^ {2}2:13 Type "Literal\[2\]" is not assignable to declared type "str"/m);
    expect(broke.diagnostics['app/main.py']).toEqual([
      expect.objectContaining({ file: 'app/main.py', line: 2, col: 13, severity: 1 }),
    ]);

    await put('app/main.py', 'count: int = 1\nname: str = "two"\n');
    const fixed = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(fixed.text).toContain('No errors in app/main.py (pyright).');
    expect(fixed.diagnostics['app/main.py']!.filter((d) => d.severity === 1)).toEqual([]);
  });
});

describe('roots', () => {
  it('a monorepo sub-project (its own pyproject.toml) gets its own pyright process rooted there', async () => {
    await put('services/api/pyproject.toml', '[project]\nname = "api"\n');
    const abs = await put('services/api/src/handler.py', 'def f() -> int:\n    return "no"\n');
    const r = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(r.text).toMatch(
      /Errors in services\/api\/src\/handler\.py \(pyright\):\n {2}2:12 Type "Literal\['no'\]" is not assignable to return type "int"/,
    );
    const roots = manager
      .clients()
      .filter((c) => c.spec.id === 'pyright')
      .map((c) => path.relative(root, c.root));
    expect(roots.sort()).toEqual(['', 'services/api']);
  });
});

describe('JSON, HTML, YAML and shell', () => {
  it('a JSON syntax error is reported with its position', async () => {
    const abs = await put('conf/settings.json', '{"a": 1,,\n "b": 2}\n');
    const r = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(r.text).toContain('Errors in conf/settings.json (json):');
    expect(r.text).toMatch(/^ {2}1:9 Property expected/m);
  });

  it('HTML reports errors in embedded CSS and JavaScript (its settings answer carries js/ts, or it throws)', async () => {
    const abs = await put(
      'web/index.html',
      '<html><head><style>a { color: red;; </style></head><body><script>let x = ;</script></body></html>\n',
    );
    const r = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(r.text).toContain('Errors in web/index.html (html):');
    expect(r.text).toMatch(/^ {2}1:74 Expression expected\.$/m);
    expect(r.text).toMatch(/^ {2}2:1 \} expected \[css-rcurlyexpected\]$/m);
  });

  it('a cancelled call says so instead of reporting no errors', async () => {
    const abs = await put('conf/settings.json', '{"a": }\n');
    const r = await manager.afterWrite([abs], { reportOtherFiles: true, signal: AbortSignal.abort() });
    expect(r.text).toContain('conf/settings.json: waiting for json diagnostics was cancelled.');
    expect(r.text).not.toContain('No errors');
  });

  it('a YAML syntax error is reported (push-only server, judged by arrival after the change)', async () => {
    const abs = await put('ci.yaml', 'a: 1\n  b: [\n');
    const r = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(r.text).toContain('Errors in ci.yaml (yaml):');
    await put('ci.yaml', 'a: 1\nb: [2]\n');
    const fixed = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(fixed.text).toContain('No errors in ci.yaml (yaml).');
  });

  it('a shell syntax error comes back through bash-language-server and shellcheck (versioned pushes)', async () => {
    const abs = await put('run.sh', '#!/bin/bash\nif [ -z "$1" ]; then\n  echo hi\n');
    const r = await manager.afterWrite([abs], { reportOtherFiles: false });
    expect(r.text).toContain('Errors in run.sh (bash):');
    expect(r.text).toMatch(/Couldn't find 'fi' for this 'if'/);
  });
});

describe('sessions', () => {
  it('touch opens the document without waiting; ending the session closes only what that session alone opened', async () => {
    const shared = await put('conf/shared.json', '{"s": 1}\n');
    const own = await put('conf/own.json', '{"o": 1}\n');
    const s2 = manager.hook('s2');
    const s3 = manager.hook('s3');
    const started = performance.now();
    s2.touch(shared);
    s2.touch(own);
    s3.touch(shared);
    expect(performance.now() - started).toBeLessThan(50);
    const json = (): ReturnType<LspManager['clients']>[number] | undefined =>
      manager.clients().find((c) => c.spec.id === 'json');
    const opened = (abs: string): boolean => json()?.docs.has(pathToFileURL(abs).href) ?? false;
    for (let i = 0; i < 200 && !(opened(shared) && opened(own)); i++) await new Promise((r) => setTimeout(r, 25));
    expect([opened(shared), opened(own)]).toEqual([true, true]);
    await manager.endSession('s2');
    expect([opened(shared), opened(own)]).toEqual([true, false]);
    await manager.endSession('s3');
    expect(opened(shared)).toBe(false);
  });
});

describe('failure paths', () => {
  it('a server that is not installed: the output says unavailable, it is looked up once, nothing hangs', async () => {
    const logs: string[] = [];
    const m = make({
      log: (l) => logs.push(l),
      settings: { servers: [{ id: 'zed-lsp', command: ['landfall-no-such-server', '--stdio'], extensions: ['.zed'] }] },
    });
    const abs = await put('x.zed', 'anything\n');
    const started = Date.now();
    const first = await m.afterWrite([abs], { reportOtherFiles: false });
    const second = await m.afterWrite([abs], { reportOtherFiles: false });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(first.text).toContain(
      'x.zed: diagnostics unavailable — language server "landfall-no-such-server" is not installed.',
    );
    expect(second.text).toBe(first.text);
    expect(logs.filter((l) => l.includes('unavailable'))).toHaveLength(1);
    await m.shutdown();
  });

  it('a turned-off server is not started and its files are reported as turned off (never as "no errors")', async () => {
    const m = make({ settings: { disabled: ['json'] } });
    const r = await m.afterWrite([await put('off.json', '{,}\n')], { reportOtherFiles: false });
    expect(r.diagnostics).toEqual({ 'off.json': [] });
    expect(r.text).toContain(
      'off.json: diagnostics unavailable — the json language server is turned off in settings (lsp.disabled).',
    );
    expect(r.text).not.toContain('Errors in');
    expect(m.clients()).toEqual([]);
    await m.shutdown();
  });

  it('a server that keeps crashing is restarted with backoff, then marked broken', async () => {
    const crash = { id: 'crashy', command: [process.execPath, '-e', 'process.exit(3)'], extensions: ['.crash'] };
    const m = make({ settings: { servers: [crash] }, backoffMs: [0, 50], maxFailures: 2 });
    const abs = await put('a.crash', 'x\n');
    const first = await m.afterWrite([abs], { reportOtherFiles: false });
    expect(first.text).toMatch(
      /a\.crash: the crashy language server crashed before answering \(crashy failed to start: exited during start/,
    );
    const second = await m.afterWrite([abs], { reportOtherFiles: false });
    expect(second.text).toContain(
      'a.crash: diagnostics unavailable — the crashy language server failed repeatedly and is turned off',
    );
    await m.shutdown();
  });

  it('an idle server is stopped (shutdown + exit) and restarted on the next use', async () => {
    const m = make({ idleMs: 300 });
    const abs = await put('idle.json', '{"a": 1}\n');
    expect((await m.afterWrite([abs], { reportOtherFiles: false })).text).toContain('No errors in idle.json (json).');
    const pid = m.clients()[0]!.proc.pid;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(m.clients()).toEqual([]);
    expect(processesInGroups([pid])).toEqual([]);
    await put('idle.json', '{"a": }\n');
    expect((await m.afterWrite([abs], { reportOtherFiles: false })).text).toContain('Errors in idle.json (json):');
    await m.shutdown();
  });
});
