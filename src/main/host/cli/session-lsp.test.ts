/**
 * `landfall run` with language servers: a local OpenAI-compatible server plays the model (one `write` of a broken
 * JSON file, then a closing text). The diagnostics of the project's JSON server reach the model in the tool result;
 * when the command returns — also after Ctrl+C mid-turn — the server process is gone (checked in /proc); `--no-lsp`
 * starts no server at all.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupTemp, tempDir } from '../../agent/testing/fixtures';
import { serverGroups, waitGroupsGone } from '../server-children';
import { run } from './session';

const SERVER = 'vscode-json-language-server';
let http: Server;
let toolResults: string[] = [];
/** Server process groups alive while the model was asked the second time (after the write ran). */
let seenGroups: number[] = [];
let dirs: string[] = [];
/** When set, the second model request presses Ctrl+C (calls the SIGINT listeners `run` added) and never answers. */
let ctrlC: (() => void) | undefined;

const sse = (chunks: unknown[]): string =>
  `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

beforeEach(async () => {
  toolResults = [];
  seenGroups = [];
  ctrlC = undefined;
  let calls = 0;
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      const messages = (JSON.parse(body) as { messages: { role: string; content: unknown }[] }).messages;
      toolResults.push(...messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content)));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (calls++ === 0) {
        const args = JSON.stringify({ filePath: 'broken.json', content: '{"a": 1,,\n "b": 2}\n' });
        res.end(
          sse([
            chunk({
              tool_calls: [{ index: 0, id: 'w1', type: 'function', function: { name: 'write', arguments: args } }],
            }),
            chunk({}, 'tool_calls'),
          ]),
        );
      } else {
        seenGroups = serverGroups(SERVER);
        if (ctrlC) ctrlC();
        else res.end(sse([chunk({ content: 'done' }, 'stop')]));
      }
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
});

afterEach(async () => {
  vi.restoreAllMocks();
  http.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
  cleanupTemp(...dirs);
  dirs = [];
});

/** `landfall run` on a fresh data folder whose settings point at the local model server; stdout is captured. */
async function landfallRun(extra: string[]): Promise<{ code: number; out: string }> {
  const data = tempDir('cli-lsp-data');
  const dir = tempDir('cli-lsp-proj');
  dirs.push(data, dir);
  const port = (http.address() as AddressInfo).port;
  const settings = {
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }],
    permissions: [],
  };
  writeFileSync(path.join(data, 'settings.json'), JSON.stringify(settings));
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    out += String(c);
    return true;
  });
  const code = await run('run', ['--dir', dir, '--data', data, ...extra, 'write broken.json']);
  vi.restoreAllMocks();
  return { code, out };
}

describe('landfall run: language servers', () => {
  it('reports the JSON server’s errors to the model and leaves no server process when it ends', async () => {
    const r = await landfallRun([]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('[stop, 2 steps');
    expect(toolResults.join('\n')).toMatch(/Errors in broken\.json \(json\):/);
    expect(seenGroups.length).toBe(1);
    expect(await waitGroupsGone(seenGroups, 2_000)).toEqual([]);
    expect(serverGroups(SERVER)).toEqual([]);
  }, 25_000);

  it('Ctrl+C during the turn ends the command and shuts its server down', async () => {
    const before = new Set(process.listeners('SIGINT'));
    ctrlC = () => {
      for (const l of process.listeners('SIGINT')) if (!before.has(l)) l('SIGINT');
    };
    const r = await landfallRun([]);
    expect(r.out).toContain('[aborted, ');
    expect(seenGroups.length).toBe(1);
    expect(await waitGroupsGone(seenGroups, 2_000)).toEqual([]);
    expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
  }, 25_000);

  it('--no-lsp runs without language servers (no diagnostics block, no server started)', async () => {
    const r = await landfallRun(['--no-lsp']);
    expect(r.code).toBe(0);
    expect(toolResults.join('\n')).toContain('broken.json');
    expect(toolResults.join('\n')).not.toContain('<diagnostics>');
    expect(seenGroups).toEqual([]);
  }, 15_000);
});
