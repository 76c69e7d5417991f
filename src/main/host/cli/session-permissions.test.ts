/**
 * `landfall run` as a real child process whose stdin is a pipe, with a local OpenAI-compatible server playing the
 * model (every request body recorded): an answer written into the pipe before the question (a stray `o`) is
 * discarded and said so, the question names exactly what it answers, and `rm -rf build` does not run. While the
 * question is open the user adds a read deny rule to settings.json by hand: the next tool call (read .env) is
 * denied and the secret never reaches the model.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTemp, tempDir } from '../../agent/testing/fixtures';

const sse = (chunks: unknown[]): string =>
  `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const toolCall = (id: string, name: string, args: unknown): string =>
  sse([
    chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }),
    chunk({}, 'tool_calls'),
  ]);

let http: Server;
let bodies: string[] = [];
const dirs: string[] = [];

beforeEach(async () => {
  bodies = [];
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const n = bodies.length;
      if (n === 1) res.end(toolCall('b1', 'bash', { command: 'rm -rf build', description: 'clean up' }));
      else if (n === 2) res.end(toolCall('r1', 'read', { filePath: '.env' }));
      else res.end(sse([chunk({ content: 'done' }, 'stop')]));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
});

afterEach(async () => {
  http.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
  cleanupTemp(...dirs.splice(0));
});

describe('landfall run on a pipe', () => {
  it('discards type-ahead before the question, names what it answers, and applies a hand-added deny rule', async () => {
    const data = tempDir('cli-perm-data');
    const dir = tempDir('cli-perm-proj');
    dirs.push(data, dir);
    mkdirSync(path.join(dir, 'build'));
    writeFileSync(path.join(dir, 'build/out.js'), 'built\n');
    writeFileSync(path.join(dir, '.env'), 'TOKEN=hunter2\n');
    const port = (http.address() as AddressInfo).port;
    const settingsFile = path.join(data, 'settings.json');
    const settings = {
      defaultProvider: 'local',
      providers: [{ id: 'local', kind: 'openai-compatible', baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }],
      permissions: [] as unknown[],
    };
    writeFileSync(settingsFile, JSON.stringify(settings));
    const tsx = path.resolve('node_modules/.bin/tsx');
    const child = spawn(tsx, ['src/main/host/cli.ts', 'run', '--dir', dir, '--data', data, '--no-lsp', 'clean'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LANDFALL_DATA_DIR: data },
    });
    // typed ahead: an "o" (allow once) sent before any question exists
    child.stdin.write('o\n');
    let out = '';
    let answered = false;
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!answered && out.includes('[r]eject')) {
        answered = true;
        // the user adds a deny rule by hand while the question is open, then rejects the command
        settings.permissions.push({ permission: 'read', pattern: '**/.env*', action: 'deny' });
        writeFileSync(settingsFile, JSON.stringify(settings));
        child.stdin.end('r not now\n');
      }
    });
    expect(await exited).toBe(0);
    expect(out).toContain('(discarded 2 characters typed ahead)');
    expect(out).toMatch(
      /\? Allow bash `rm -rf build`\? \[o\]nce \/ \[a\]lways exactly this \(rm -rf build\) \/ \[r\]eject/,
    );
    expect(out).toContain('the model says: clean up');
    expect(existsSync(path.join(dir, 'build/out.js'))).toBe(true);
    expect(readFileSync(path.join(dir, 'build/out.js'), 'utf8')).toBe('built\n');
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toContain('not now');
    expect(bodies[2]).toContain('permission_denied');
    expect(bodies.join('\n')).not.toContain('hunter2');
  }, 60_000);
});
