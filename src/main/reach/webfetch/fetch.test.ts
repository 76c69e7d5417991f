import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../tools/types';
import type { Resolver } from './hop';
import { AttemptLog, startServer } from './testing/servers';
import type { TestServer } from './testing/servers';
import { capToolOutcome } from '../../agent/context/tool-output';
import { webfetchTool } from './tool';
import type { WebfetchDeps } from './tool';

const log = new AttemptLog('webfetch against local servers (refused fetches)');
let main: TestServer; // 127.0.0.1: the allowed test host's server
let second: TestServer; // 127.0.0.2: must never be reached
let v6: TestServer; // [::1]: must never be reached
let third: TestServer; // 127.0.0.3: reached only through a pinned name

const PAGE = `<!doctype html><html><head><title>Guide</title><style>body{color:red}</style>
<script>alert("x")</script></head><body><h1>Install</h1><p>Run <code>npm i</code> then <a href="/next">next</a>.</p>
<script>document.write("hidden")</script><noscript>enable js</noscript></body></html>`;

beforeAll(async () => {
  const redirect =
    (to: () => string) =>
    (_req: unknown, res: ServerResponse): void =>
      void res.writeHead(302, { location: to() }).end();
  main = await startServer('127.0.0.1', {
    '/page': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE },
    '/json': { headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
    '/png': { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
    '/latin1': {
      headers: { 'content-type': 'text/plain; charset=iso-8859-1' },
      body: Buffer.from([0x63, 0x61, 0x66, 0xe9]),
    },
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = (): void => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    },
    '/hang': () => undefined,
    '/r1': { status: 301, headers: { location: '/r2' } },
    '/r2': redirect(() => `${second.base}/secret`),
    '/to-v6': redirect(() => `${v6.base}/secret`),
    '/to-decimal': redirect(() => `http://2130706433:${second.port}/secret`),
    '/to-meta': redirect(() => 'http://meta.test/latest/meta-data/'),
    '/to-file': redirect(() => 'file:///etc/passwd'),
    '/to-other-allowed': redirect(() => `http://docs.allowed.test:${main.port}/page`),
    '/loop': redirect(() => '/loop'),
  });
  second = await startServer('127.0.0.2', { '/secret': { body: 'SECRET' } });
  v6 = await startServer('::1', { '/secret': { body: 'SECRET6' } });
  third = await startServer('127.0.0.3', { '/pinned': { body: 'pinned ok' } });
});

const scratchDirs: string[] = [];

afterAll(async () => {
  log.print();
  for (const d of scratchDirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await Promise.all([main, second, v6, third].map((s) => s.close()));
});

const lookups: string[] = [];
const resolver: Resolver = async (host) => {
  lookups.push(host);
  const table: Record<string, string> = {
    'allowed.test': '127.0.0.1',
    'docs.allowed.test': '127.0.0.1',
    'meta.test': '169.254.169.254',
    'intranet.test': '10.9.8.7',
    'pinned.test': '127.0.0.3',
  };
  const a = table[host];
  if (!a) throw new Error(`${host} is not in the test table`);
  return [{ address: a, family: 4 }];
};

const deps = (allowHosts: string[], extra: Partial<WebfetchDeps> = {}): WebfetchDeps => ({
  allowHosts: () => allowHosts,
  resolve: resolver,
  ...extra,
});

/** A fresh scratch folder, removed after the file. */
function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webfetch-scratch-'));
  scratchDirs.push(dir);
  return dir;
}

function ctx(extra: Partial<ToolContext> = {}): ToolContext {
  const forget = (): void => undefined;
  return {
    root: os.tmpdir(),
    sessionId: 'ses_test',
    observed: { record: forget, get: () => undefined, forget },
    scratchDir: scratch(),
    ...extra,
  };
}

const allowed = (p: string): string => `http://allowed.test:${main.port}${p}`;

describe('webfetch refuses local servers', () => {
  it('refuses 127.0.0.2, [::1] and every spelling of loopback, and none of them is contacted', async () => {
    const tool = webfetchTool(deps([]));
    const urls = [
      `${second.base}/secret`,
      `${v6.base}/secret`,
      `http://localhost:${main.port}/page`,
      `http://localhost.:${main.port}/page`,
      `http://2130706433:${main.port}/page`,
      `http://0x7f.1:${main.port}/page`,
      `http://017700000001:${main.port}/page`,
      `http://127.1:${main.port}/page`,
      `http://[::ffff:127.0.0.1]:${main.port}/page`,
      `http://0:${main.port}/page`,
      `http://intranet.test/`,
      `http://meta.test/latest/meta-data/`,
    ];
    for (const url of urls) {
      const r = await tool.execute({ url }, ctx());
      const held = !r.ok && r.error.code === 'blocked_address';
      log.record(held);
      expect(r.ok ? 'ok' : r.error.code, url).toBe('blocked_address');
    }
    expect([main.hits, second.hits, v6.hits]).toEqual([[], [], []]);
  });
});

describe('webfetch with an allowed test host', () => {
  it('returns HTML as markdown without scripts or styles, sends the name as Host, resolves once', async () => {
    lookups.length = 0;
    const r = await webfetchTool(deps(['allowed.test'])).execute({ url: allowed('/page') }, ctx());
    expect(r.ok).toBe(true);
    const out = r.output;
    expect(out).toContain('# Guide\n\n# Install\n\nRun `npm i` then [next](/next).');
    expect(out).not.toMatch(/alert|hidden|color:red|enable js/);
    expect(out.startsWith(`URL: ${allowed('/page')}\nStatus: 200\nContent-Type: text/html; charset=utf-8\n\n`)).toBe(
      true,
    );
    expect(main.hits.at(-1)).toEqual({ path: '/page', host: `allowed.test:${main.port}` });
    expect(lookups).toEqual(['allowed.test']);
  });

  it('connects to the address it checked: a name only the injected resolver knows reaches 127.0.0.3', async () => {
    lookups.length = 0;
    const r = await webfetchTool(deps(['pinned.test'])).execute(
      { url: `http://pinned.test:${third.port}/pinned` },
      ctx(),
    );
    expect(r.ok && r.output.endsWith('\n\npinned ok')).toBe(true);
    expect(lookups).toEqual(['pinned.test']);
    expect(third.hits).toEqual([{ path: '/pinned', host: `pinned.test:${third.port}` }]);
  });

  it('keeps JSON as it is, decodes the charset, refuses images', async () => {
    const tool = webfetchTool(deps(['allowed.test']));
    const json = await tool.execute({ url: allowed('/json') }, ctx());
    expect(json.ok && json.output.endsWith('\n\n{"a":1}')).toBe(true);
    const latin = await tool.execute({ url: allowed('/latin1') }, ctx());
    expect(latin.ok && latin.output.endsWith('\n\ncafé')).toBe(true);
    const png = await tool.execute({ url: allowed('/png') }, ctx());
    expect(png.ok ? 'ok' : png.error.code).toBe('unsupported_content');
  });

  it('follows redirect chains by hand and refuses every hop that leads to a local address', async () => {
    const tool = webfetchTool(deps(['allowed.test']));
    const cases: [string, string, RegExp][] = [
      ['/r1', 'blocked_address', /127\.0\.0\.2.*redirected from .*\/r1 → .*\/r2/],
      ['/to-v6', 'blocked_address', /::1/],
      ['/to-decimal', 'blocked_address', /127\.0\.0\.1/],
      ['/to-meta', 'blocked_address', /metadata/],
      ['/to-file', 'invalid_input', /only http and https/],
      ['/loop', 'unavailable', /more than 5 times/],
    ];
    for (const [p, code, message] of cases) {
      const r = await tool.execute({ url: allowed(p) }, ctx());
      log.record(!r.ok && r.error.code === code);
      expect(r.ok ? 'ok' : `${r.error.code} ${r.error.message}`).toMatch(new RegExp(`^${code} .*${message.source}`));
    }
    expect(main.hits.filter((h) => h.path === '/loop')).toHaveLength(6);
    expect([second.hits, v6.hits]).toEqual([[], []]);
  });

  it('reads at most 5 MB, says so, and the one output cap cuts what the model reads, the whole text in a file', async () => {
    const c = ctx();
    const raw = await webfetchTool(deps(['allowed.test'])).execute({ url: allowed('/big') }, c);
    // every tool's outcome goes through the same cap in the tool runner (agent/context/tool-output.ts)
    const r = await capToolOutcome('webfetch', raw, c);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.metadata.bytes).toBe(5 * 1024 * 1024);
    expect(r.metadata.readTruncated).toBe(true);
    expect(r.output).toContain('(the body passed 5242880 bytes: only its first 5242880 bytes were read)');
    const saved = r.metadata.fullOutput as { file: string; totalBytes: number };
    const full = readFileSync(saved.file, 'utf8');
    expect(full.endsWith(`\n\n${'a'.repeat(5 * 1024 * 1024)}`)).toBe(true);
    expect(saved.totalBytes).toBe(Buffer.byteLength(full));
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(50 * 1024 + 1024);
  });

  it('stops at the time limit', async () => {
    const r = await webfetchTool(deps(['allowed.test'])).execute({ url: allowed('/hang'), timeout: 0.3 }, ctx());
    expect(r.ok ? 'ok' : `${r.error.code} ${r.error.message}`).toMatch(/^timeout .*took longer than 300 ms/);
  });

  it('asks webfetch per host, and a refusal connects nowhere', async () => {
    const asked: string[][] = [];
    const before = main.hits.length;
    const denied = await webfetchTool(deps(['allowed.test'])).execute(
      { url: allowed('/page') },
      ctx({ ask: async (q) => (asked.push([q.permission, ...q.patterns]), { allow: false, reason: 'no web' }) }),
    );
    expect(denied.ok ? 'ok' : `${denied.error.code} ${denied.error.message}`).toBe(
      `permission_denied Fetching ${allowed('/page')} is not allowed: no web`,
    );
    expect(main.hits.length).toBe(before);
    asked.length = 0;
    const redirected = await webfetchTool(deps(['allowed.test', '*.allowed.test'])).execute(
      { url: allowed('/to-other-allowed') },
      ctx({ ask: async (q) => (asked.push([q.permission, ...q.patterns]), { allow: true }) }),
    );
    expect(redirected.ok).toBe(true);
    expect(asked).toEqual([
      ['webfetch', 'allowed.test'],
      ['webfetch', 'docs.allowed.test'],
    ]);
  });
});
