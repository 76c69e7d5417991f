/**
 * Landfall itself killed (SIGKILL: no exit hook, no shutdown): its servers run detached in their own process
 * groups, so nothing signals them: they must notice on their own (stdin closing, and `processId` = Landfall's pid
 * sent at initialize — DESIGN §7: with the server's own pid they outlive the client) — or, in their own PID
 * namespace (proc/pid-namespace.ts, where `processId` is null since Landfall's pid means nothing in there), the
 * namespace's init ends them when Landfall's end of its channel closes. A child Node process plays
 * Landfall: it opens a JSON file (starting vscode-json-language-server), prints the server's pid, and is killed.
 * Also: a server that never answers for a file is reported as timed out, in plain words, within its budget.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LspManager } from './manager';
import { processesInGroups } from './proc-table';

const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-lsp-orphan-')));
let standIn: ChildProcess | undefined;
afterAll(() => {
  if (standIn && standIn.exitCode === null && standIn.signalCode === null) standIn.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('server lifetime and timeouts', () => {
  it('servers exit when Landfall is killed (stdin closes; the namespace init or processId ends them)', async () => {
    writeFileSync(path.join(tmp, 'a.json'), '{"a": 1}\n');
    const script = path.join(tmp, 'landfall-stand-in.mts');
    const managerPath = path.resolve(process.cwd(), 'src/main/lsp/manager.ts');
    writeFileSync(
      script,
      [
        `import { LspManager } from ${JSON.stringify(managerPath)};`,
        `const m = LspManager.create({ root: ${JSON.stringify(tmp)}, log: () => undefined });`,
        `if (!m.ok) process.exit(2);`,
        `await m.value.afterWrite([${JSON.stringify(path.join(tmp, 'a.json'))}], { reportOtherFiles: false });`,
        `console.log('PID ' + m.value.clients()[0].proc.pid);`,
        `setInterval(() => undefined, 1000);`,
      ].join('\n'),
    );
    // `node --import tsx` runs the script in this very process (the tsx CLI would add a second one).
    const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', loader, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    standIn = child;
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /PID (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`stand-in exited early (${code})`)));
    });
    expect(processesInGroups([pid]).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    let left = processesInGroups([pid]);
    for (let i = 0; i < 100 && left.length > 0; i++) {
      await sleep(100);
      left = processesInGroups([pid]);
    }
    if (left.length > 0) for (const p of left) process.kill(p.pid, 'SIGKILL');
    expect(left).toEqual([]);
  });

  it('a push-only server that stays silent is reported as timed out, never as "no errors"', async () => {
    // The anchor's fixed wait reads silence as "no errors"; Landfall must say it got no answer. The stand-in is a
    // real LSP process (vscode-jsonrpc over stdio) that completes the handshake, offers no pull diagnostics and
    // never pushes — real servers only do that sometimes (typescript-language-server on a clean file, depending
    // on timing), which made a test built on one of them flaky.
    const jsonrpc = createRequire(import.meta.url).resolve('vscode-jsonrpc/node');
    const server = path.join(tmp, 'silent-server.cjs');
    writeFileSync(
      server,
      [
        '#!/usr/bin/env node',
        `const rpc = require(${JSON.stringify(jsonrpc)});`,
        'const c = rpc.createMessageConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));',
        "c.onRequest('initialize', () => ({ capabilities: { textDocumentSync: 1 } }));",
        "c.onRequest('shutdown', () => null);",
        "c.onNotification('exit', () => process.exit(0));",
        'c.listen();',
      ].join('\n'),
    );
    chmodSync(server, 0o755);
    const m = LspManager.create({
      root: tmp,
      timeoutScale: 0.5,
      log: () => undefined,
      // the server script lives in the project folder: it runs only in a trusted folder (src/main/reach/trust)
      projectTrusted: true,
      settings: {
        disabled: ['typescript'],
        servers: [{ id: 'silent', command: [server], extensions: ['.ts'], languageId: 'typescript', latencyMs: 50 }],
      },
    });
    if (!m.ok) throw new Error(m.error.message);
    writeFileSync(path.join(tmp, 'clean.ts'), 'export const a = 1;\n');
    const report = await m.value.afterWrite([path.join(tmp, 'clean.ts')], { reportOtherFiles: false });
    expect(report.text).toContain(
      'clean.ts: silent gave no diagnostics within 3000 ms (timed out) — errors may exist that are not listed.',
    );
    expect(report.text).not.toContain('No errors');
    await m.value.shutdown();
  });
});
