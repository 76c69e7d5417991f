import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { liveProcesses, processesInGroups } from '../../lsp/proc-table';
import type { ToolContext, ToolDefinition } from '../../tools/types';
import { TrustStore } from '../trust/store';
import type { McpSettings } from './config';
import { capToolOutcome } from '../../agent/context/tool-output';
import { estimateTokens } from '../../agent/context/tokens';
import { McpHub } from './hub';
import { startHttpMcp } from './testing/http-server';

const SERVER = path.join(import.meta.dirname, 'testing', 'server.mjs');
const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-hub-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

function ctx(extra: Partial<ToolContext> = {}): ToolContext {
  const none = (): undefined => undefined;
  return {
    root: tmp,
    sessionId: 'ses_mcp',
    observed: { record: none, get: none, forget: none },
    scratchDir: path.join(tmp, 'scratch'),
    ...extra,
  };
}

function hubWith(servers: McpSettings['servers'], trustFile = path.join(tmp, `trust-${hubs.length}.json`)) {
  const reports: string[] = [];
  const trust = TrustStore.open(trustFile);
  const hub = new McpHub(
    () => ({ servers }),
    trust,
    estimateTokens,
    (_root, text) => void reports.push(text),
  );
  hubs.push(hub);
  return { hub, reports, trust };
}

const stdio = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [SERVER],
  env: {},
  ...extra,
});

async function tool(hub: McpHub, root: string, name: string): Promise<ToolDefinition> {
  const found = (await hub.toolsFor(root)).find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe('an MCP server over stdio', () => {
  it('lists tools as <server>_<tool>, calls them, reports errors, leaves images out, caps a 10 MB output', async () => {
    const { hub } = hubWith({ t: stdio() });
    const names = (await hub.toolsFor(tmp)).map((t) => t.name).sort();
    expect(names).toEqual([
      't_big',
      't_crash',
      't_echo',
      't_env',
      't_environ',
      't_fail',
      't_grow',
      't_image',
      't_slow',
      't_spawn',
    ]);
    const echo = await (await tool(hub, tmp, 't_echo')).execute({ text: 'hi' }, ctx());
    expect(echo).toMatchObject({ ok: true, output: 'echo: hi' });
    const failed = await (await tool(hub, tmp, 't_fail')).execute({}, ctx());
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'tool_error' },
      output: 'Error (tool_error): the thing is broken',
    });
    const image = await (await tool(hub, tmp, 't_image')).execute({}, ctx());
    expect(image.output).toBe(
      '[image (image/png) left out: Landfall does not pass MCP images to the model]\n[resource file:///notes.txt]\nresource text',
    );
    // every tool's outcome goes through the one output cap in the tool runner (agent/context/tool-output.ts)
    const c = ctx();
    const big = await capToolOutcome('t_big', await (await tool(hub, tmp, 't_big')).execute({}, c), c);
    expect(big.ok).toBe(true);
    expect(Buffer.byteLength(big.output)).toBeLessThanOrEqual(50 * 1024 + 1024);
    const saved = (big.ok ? big.metadata.fullOutput : undefined) as { file: string; omittedBytes: number };
    expect(readFileSync(saved.file, 'utf8')).toBe('x'.repeat(10 * 1024 * 1024));
    expect(saved.omittedBytes).toBeGreaterThan(10 * 1024 * 1024 - 50 * 1024);
  });

  it('gives the server the scrubbed environment plus only what the entry names', async () => {
    process.env.LANDFALL_API_KEY = 'sk-landfall-should-not-leak-0000';
    process.env.MY_SERVICE_TOKEN = 'should-not-leak-either';
    try {
      const { hub } = hubWith({ t: stdio({ env: { ONLY_THIS: '1' } }) });
      const out = await (await tool(hub, tmp, 't_env')).execute({}, ctx());
      const names = JSON.parse(out.output) as string[];
      expect(names).toContain('ONLY_THIS');
      expect(names).toContain('PATH');
      expect(names.filter((n) => /LANDFALL_API_KEY|MY_SERVICE_TOKEN/.test(n))).toEqual([]);
    } finally {
      delete process.env.LANDFALL_API_KEY;
      delete process.env.MY_SERVICE_TOKEN;
    }
  });

  it('a call that does not answer times out in words; a crashed server restarts on the next call', async () => {
    const { hub } = hubWith({ t: stdio({ callTimeout: 0.5 }) });
    const slow = await (await tool(hub, tmp, 't_slow')).execute({}, ctx());
    expect(slow.ok ? 'ok' : `${slow.error.code} ${slow.error.message}`).toMatch(/^timeout t_slow failed: .*timed out/i);
    const before = hub.connections(tmp)[0]!.pid;
    const crash = await (await tool(hub, tmp, 't_crash')).execute({}, ctx());
    expect(crash.ok ? 'ok' : crash.error.code).toBe('unavailable');
    const again = await (await tool(hub, tmp, 't_echo')).execute({ text: 'back' }, ctx());
    expect(again).toMatchObject({ ok: true, output: 'echo: back' });
    expect(hub.connections(tmp)[0]!.pid).not.toBe(before);
  });

  it('follows tools/list_changed: a tool added by the server is offered next', async () => {
    const { hub } = hubWith({ t: stdio() });
    const changed = new Promise<string>((resolve) => hub.onToolsChanged((_root, server) => resolve(server)));
    await (await tool(hub, tmp, 't_grow')).execute({}, ctx());
    expect(await changed).toBe('t');
    const late = await (await tool(hub, tmp, 't_late')).execute({}, ctx());
    expect(late.output).toBe('late tool');
  });

  it('is stopped with the project, grandchildren included (checked in /proc)', async () => {
    const { hub } = hubWith({ t: stdio() });
    const spawned = await (await tool(hub, tmp, 't_spawn')).execute({}, ctx());
    const leader = hub.connections(tmp)[0]!.pid!;
    // Found by its command line: a pid the server reports is the one inside its own PID namespace.
    const sleeper = `sleep\0${spawned.output}\0`;
    const alive = (): boolean =>
      liveProcesses().some((p) => {
        try {
          return readFileSync(`/proc/${p.pid}/cmdline`, 'latin1') === sleeper;
        } catch {
          return false;
        }
      });
    expect(alive()).toBe(true);
    await hub.closeProject(tmp);
    expect(processesInGroups([leader])).toEqual([]);
    expect(alive()).toBe(false);
  });

  it('a server that fails to start or to answer is reported once, in words, and the others go on', async () => {
    const { hub, reports } = hubWith({
      dead: { command: process.execPath, args: ['-e', 'process.stderr.write("no config"); process.exit(2)'], env: {} },
      mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {}, startTimeout: 0.5 },
      t: stdio(),
    });
    const names = (await hub.toolsFor(tmp)).map((t) => t.name);
    expect(names).toContain('t_echo');
    expect(names.some((n) => n.startsWith('dead_') || n.startsWith('mute_'))).toBe(false);
    await hub.toolsFor(tmp);
    expect(reports).toHaveLength(2);
    expect(reports.find((r) => r.includes('dead'))).toMatch(
      /^MCP server dead is not available: .*no config.*goes on without it\.$/,
    );
    expect(reports.find((r) => r.includes('mute'))).toMatch(/did not answer within 0\.5 s/);
    const status = await hub.status(tmp);
    expect(status.map((s) => [s.name, s.state])).toEqual([
      ['dead', 'failed'],
      ['mute', 'failed'],
      ['t', 'connected'],
    ]);
    const t = status.find((s) => s.name === 't')!;
    expect(t.tokens).toBe(t.tools.reduce((n, x) => n + x.tokens, 0));
    expect(t.tokens).toBeGreaterThan(50);
  });

  it('turned-off tools and servers are not offered; a denied permission does not call the server', async () => {
    const { hub } = hubWith({ t: stdio({ disabledTools: ['crash', 'big'] }), off: stdio({ enabled: false }) });
    const names = (await hub.toolsFor(tmp)).map((t) => t.name);
    expect(names.filter((n) => /crash|big|^off_/.test(n))).toEqual([]);
    const asked: string[] = [];
    const denied = await (
      await tool(hub, tmp, 't_echo')
    ).execute(
      { text: 'x' },
      ctx({ ask: async (q) => (asked.push(`${q.permission} ${q.patterns[0]}`), { allow: false, reason: 'no' }) }),
    );
    expect(denied.ok ? 'ok' : `${denied.error.code} ${denied.error.message}`).toBe(
      'permission_denied t_echo is not allowed: no',
    );
    expect(asked).toEqual(['mcp t_echo']);
  });
});

describe('an MCP server over Streamable HTTP on 127.0.0.1', () => {
  it('lists and calls tools, sends the entry headers, and follows list_changed', async () => {
    const server = await startHttpMcp();
    try {
      const { hub } = hubWith({ h: { type: 'http', url: server.url, headers: { Authorization: 'Bearer test' } } });
      const echo = await (await tool(hub, tmp, 'h_echo')).execute({ text: 'over http' }, ctx());
      expect(echo).toMatchObject({ ok: true, output: 'echo: over http' });
      expect(server.authorization).toBe('Bearer test');
      const changed = new Promise<string>((resolve) => hub.onToolsChanged((_r, s) => resolve(s)));
      await (await tool(hub, tmp, 'h_grow')).execute({}, ctx());
      expect(await changed).toBe('h');
      expect((await tool(hub, tmp, 'h_late')).name).toBe('h_late');
    } finally {
      await Promise.all(hubs.splice(0).map((h) => h.close()));
      await server.close();
    }
  });
});

describe("a project's own .mcp.json", () => {
  it('starts nothing until the folder is trusted and this content approved; an edit asks again', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmp, 'project-')));
    const marker = path.join(root, 'started.txt');
    const file = path.join(root, '.mcp.json');
    const declare = (extra: string): void =>
      writeFileSync(
        file,
        JSON.stringify({
          mcpServers: {
            p: { command: 'sh', args: ['-c', `echo ${extra} > '${marker}'; exec '${process.execPath}' '${SERVER}'`] },
          },
        }),
      );
    declare('one');
    const { hub, trust } = hubWith({});
    expect(await hub.toolsFor(root)).toEqual([]);
    expect((await hub.status(root)).map((s) => [s.name, s.state])).toEqual([['p', 'untrusted']]);
    expect(existsSync(marker)).toBe(false);
    await trust.trust(root);
    expect(await hub.toolsFor(root)).toEqual([]); // the folder alone is not enough: the file is asked for
    const { createHash } = await import('node:crypto');
    await trust.approveFile(file, createHash('sha256').update(readFileSync(file)).digest('hex'));
    expect((await hub.toolsFor(root)).map((t) => t.name)).toContain('p_echo');
    expect(readFileSync(marker, 'utf8')).toBe('one\n');
    rmSync(marker);
    declare('two');
    expect(await hub.toolsFor(root)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });
});
