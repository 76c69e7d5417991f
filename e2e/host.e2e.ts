/**
 * The web host's doors and the first run: a bad contract payload is answered with a typed error; a WebSocket
 * without the session cookie, or from another origin, is refused; the one-time token works once; the CSP header
 * is sent. With no settings yet, the app says so and replays the bundled sample to the recorded end state.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'node:http';
import { WebSocket } from 'ws';
import type { BrowserContext, Page } from 'playwright-core';
import {
  fileText,
  rowsDoNotOverlap,
  sampleEndState,
  shot,
  openApp,
  type AppInBrowser,
  type AppUnderTest,
} from './harness';

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];

beforeAll(async () => {
  ui = await openApp();
  ({ app, page, errors } = ui);
});

afterAll(async () => {
  await ui?.close();
});

/** Opens a node WebSocket with the given headers; resolves to 'open' or the refusing HTTP status. */
function tryConnect(headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.served.host.port}/ws`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

/** A GET with the path sent exactly as written (fetch would normalise the dots away). */
function rawGet(path: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: app.served.host.port,
        path,
        headers: { cookie, host: `127.0.0.1:${app.served.host.port}` },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function sessionCookie(context: BrowserContext): Promise<string> {
  const c = (await context.cookies()).find((x) => x.name === 'landfall_session');
  if (!c) throw new Error('no session cookie');
  expect(c.httpOnly).toBe(true);
  expect(c.sameSite).toBe('Strict');
  return `${c.name}=${c.value}`;
}

describe('the web host', () => {
  test('invalid payloads get typed errors, never a crash; a good call still works', async () => {
    await page.waitForSelector('[data-testid=first-run]');
    const answers = (await page.evaluate(`(async () => {
      const ws = new WebSocket('ws://' + location.host + '/ws');
      await new Promise((r) => ws.addEventListener('open', r, { once: true }));
      const replies = [];
      ws.addEventListener('message', (m) => replies.push(JSON.parse(m.data)));
      ws.send(JSON.stringify({ id: 1, call: 'sessions.rename', input: { sessionId: 5, title: '' } }));
      ws.send(JSON.stringify({ id: 2, call: 'no.such.call', input: {} }));
      ws.send('this is not json');
      ws.send(JSON.stringify({ id: 3, call: 'projects.open', input: { root: '/definitely/not/here' } }));
      ws.send(JSON.stringify({ id: 4, call: 'app.info' }));
      while (replies.length < 5) await new Promise((r) => setTimeout(r, 20));
      ws.close();
      return replies;
    })()`)) as {
      id: number | null;
      result: {
        ok: boolean;
        error?: { code: string; message: string; data?: { issues: { path: string }[] } };
        value?: unknown;
      };
    }[];
    const byId = new Map(answers.map((a) => [a.id, a.result]));
    expect(byId.get(1)?.ok).toBe(false);
    expect(byId.get(1)?.error?.code).toBe('invalid_input');
    expect(byId.get(1)?.error?.data?.issues.map((i) => i.path)).toEqual(['sessionId', 'title']);
    expect(byId.get(2)?.error?.code).toBe('unknown_call');
    expect(byId.get(null)?.error?.code).toBe('invalid_input');
    expect(byId.get(3)?.error?.code).toBe('file_not_found');
    expect(byId.get(4)).toEqual({
      ok: true,
      value: { version: expect.any(String), transport: 'web', nativeDialog: false, firstRun: true },
    });
  });

  test('a WebSocket without the session cookie, or from another origin, is refused', async () => {
    const origin = `http://127.0.0.1:${app.served.host.port}`;
    const cookie = await sessionCookie(page.context());
    expect(await tryConnect({ Origin: origin })).toBe(401);
    expect(await tryConnect({ Origin: 'http://evil.example', Cookie: cookie })).toBe(403);
    expect(await tryConnect({ Origin: origin, Cookie: 'landfall_session=forged' })).toBe(401);
    expect(await tryConnect({ Origin: origin, Cookie: cookie })).toBe('open');
  });

  test('the token works once; pages need the cookie; the CSP header is sent', async () => {
    const spent = await fetch(app.served.host.url, { redirect: 'manual' });
    expect(spent.status).toBe(401);
    const fresh = await fetch(app.served.host.issueUrl(), { redirect: 'manual' });
    expect(fresh.status).toBe(302);
    const cookie = (fresh.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const anonymous = await fetch(`http://127.0.0.1:${app.served.host.port}/`);
    expect(anonymous.status).toBe(401);
    const index = await fetch(`http://127.0.0.1:${app.served.host.port}/`, { headers: { cookie } });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain(`ws://127.0.0.1:${app.served.host.port}`);
    for (const path of ['/assets/../../package.json', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      expect(await rawGet(path, cookie)).toBe(404);
    }
  });

  test('first run: no provider, the sample replays to the recorded end state', async () => {
    await shot(page, '10-first-run');
    await page.click('[data-testid=replay-sample]');
    await page.getByText(/Replayed turn 2 of 2/).waitFor({ timeout: 30_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached' });
    const samples = join(app.dataDir, 'samples');
    const [folder] = await readdir(samples);
    expect(folder).toBeDefined();
    const end = await sampleEndState();
    for (const [path, text] of Object.entries(end))
      expect(await fileText(join(samples, folder as string), path)).toBe(text);
    await shot(page, '11-sample-replayed');
    expect(errors).toEqual([]);
  });

  test('the theme follows the OS: dark when the system is dark', async () => {
    const background = (): Promise<string> =>
      page.evaluate('getComputedStyle(document.body).backgroundColor') as Promise<string>;
    expect(await background()).toBe('rgb(247, 247, 245)');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(23, 25, 28)');
    await page.locator('.tool-card[data-tool=edit] .tool-head').first().click();
    await page.locator('.tool-body .patch').first().waitFor();
    await expect.poll(() => rowsDoNotOverlap(page)).toBe(true);
    await shot(page, '12-dark-theme');
    expect(errors).toEqual([]);
  });

  test('a dropped connection comes back by itself and the window reloads what it missed', async () => {
    const before = await page.locator('[data-testid=session-item]').count();
    app.served.host.dropSockets();
    await page.waitForTimeout(1500);
    await page.click('[data-testid=new-session]');
    await expect.poll(() => page.locator('[data-testid=session-item]').count()).toBe(before + 1);
    expect(errors).toEqual([]);
  });
});
