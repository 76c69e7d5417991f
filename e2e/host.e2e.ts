/**
 * The web host's doors and the first run: a bad contract payload is answered with a typed error; a WebSocket
 * without the page's credential, or from another origin, is refused; the one-time token works once; the CSP header
 * is sent; the credential stays with this origin — a second local server the same browser visits sees none of it,
 * and whatever it could steal opens nothing. With no settings yet, the app says so and replays the bundled sample
 * to the recorded end state. Reconnects and reloads keep the page signed in.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { APP_PROTOCOL, CREDENTIAL_STORAGE_KEY } from '../src/shared/web-auth';
import { openSocket, protocolsFor } from '../src/main/host/web-test-client';
import {
  fileText,
  openPage,
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
let origin: string;

beforeAll(async () => {
  ui = await openApp();
  ({ app, page, errors } = ui);
  origin = `http://127.0.0.1:${app.served.host.port}`;
});

afterAll(async () => {
  await ui?.close();
});

/** Tries a WebSocket to the host; resolves to 'open' or the refusing HTTP status. */
async function tryConnect(protocols: string[], headers: Record<string, string>): Promise<'open' | number> {
  const r = await openSocket(app.served.host.port, protocols, headers);
  if (typeof r === 'number') return r;
  r.close();
  return 'open';
}

/** A GET with the path sent exactly as written (fetch would normalise the dots away). */
function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: app.served.host.port, path, headers: { host: `127.0.0.1:${app.served.host.port}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The credential the page keeps in its origin's storage. */
async function pageCredential(p: Page): Promise<string> {
  const c = (await p.evaluate(`localStorage.getItem(${JSON.stringify(CREDENTIAL_STORAGE_KEY)})`)) as string | null;
  if (!c) throw new Error('the page holds no credential');
  return c;
}

/** Another web server on 127.0.0.1 (another port): its page loads an image and fetches from itself; it records
 * every request it receives. */
async function otherLocalServer(): Promise<{
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end(
        '<!doctype html><img id="pixel" src="/pixel.png"><script>fetch("/data", { credentials: "include" }).then(() => { document.title = "fetched"; });</script>',
      );
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    // close() waits for every open connection; the browser may hold a kept-alive or preconnected one for minutes
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe('the web host', () => {
  test('invalid payloads get typed errors, never a crash; a good call still works', async () => {
    await page.waitForSelector('[data-testid=first-run]');
    const answers = (await page.evaluate(`(async () => {
      const ws = new WebSocket('ws://' + location.host + '/ws', ['${APP_PROTOCOL}', 'landfall.auth.' + localStorage.getItem('${CREDENTIAL_STORAGE_KEY}')]);
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

  test('a WebSocket without the credential, or from another origin, is refused', async () => {
    const credential = await pageCredential(page);
    expect(await tryConnect([APP_PROTOCOL], { origin })).toBe(401);
    expect(await tryConnect(protocolsFor(credential), { origin: 'http://evil.example' })).toBe(403);
    expect(await tryConnect(protocolsFor('forged'), { origin })).toBe(401);
    expect(await tryConnect(protocolsFor(credential), { origin })).toBe('open');
  });

  test('the token works once; pages are public, calls are not; the CSP header is sent', async () => {
    const spent = await openPage(ui.browser, app.served.host.url);
    const banner = spent.page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('unauthorized');
    expect(await banner.textContent()).toMatch(/not signed in.*Open the URL `npm run serve` printed/s);
    await spent.page.context().close();
    const index = await fetch(`${origin}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('set-cookie')).toBeNull();
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('content-security-policy')).toContain(`ws://127.0.0.1:${app.served.host.port}`);
    for (const path of ['/assets/../../package.json', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      expect(await rawGet(path)).toBe(404);
    }
  });

  test('the credential stays with this origin: another local server sees none of it, and what it could steal opens nothing', async () => {
    const credential = await pageCredential(page);
    const other = await otherLocalServer();
    const visit = await page.context().newPage();
    try {
      await visit.goto(other.url);
      await visit.waitForFunction('document.title === "fetched" && document.getElementById("pixel").complete');
      expect(await visit.evaluate(`localStorage.getItem(${JSON.stringify(CREDENTIAL_STORAGE_KEY)})`)).toBeNull();
    } finally {
      await visit.close();
      await other.close();
    }
    expect(other.seen.map((r) => r.url).sort()).toEqual(expect.arrayContaining(['/', '/data', '/pixel.png']));
    expect(other.seen.filter((r) => r.headers.cookie !== undefined)).toEqual([]);
    expect(other.seen.filter((r) => JSON.stringify(r).includes(credential))).toEqual([]);
    expect(await page.context().cookies()).toEqual([]);
    // A non-browser client replays whatever the other server saw (nothing) or any cookie, with a forged Origin.
    const stolen = other.seen.map((r) => r.headers.cookie ?? '').join('; ');
    let held = 0;
    const tries: [string[], Record<string, string>][] = [
      [[APP_PROTOCOL], { origin, cookie: stolen || 'landfall_session=stolen' }],
      [[APP_PROTOCOL], { origin, cookie: `landfall_session=${credential}` }],
      [protocolsFor(credential), { origin: other.url.slice(0, -1) }],
    ];
    for (const [protocols, headers] of tries) if ((await tryConnect(protocols, headers)) !== 'open') held++;
    console.log(`[hostile] stolen web credentials: ${tries.length} attempts / ${held} held`);
    expect(held).toBe(tries.length);
  });

  test('first run: no provider, the sample replays to the recorded end state', async () => {
    await shot(page, '10-first-run');
    await page.click('[data-testid=replay-sample]');
    // The sample asks one question, as its banner promises (first-run.e2e.ts looks at it closely).
    const prompt = page.locator('[data-testid=permission]', { hasText: 'test/shout.test.js' });
    await prompt.waitFor({ timeout: 30_000 });
    await prompt.locator('[data-testid=allow-once]').click();
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

  test('a dropped connection comes back by itself and the window reloads what it missed; a reload stays signed in', async () => {
    const before = await page.locator('[data-testid=session-item]').count();
    const reconnected = page.waitForEvent('websocket');
    app.served.host.dropSockets();
    const socket = await reconnected;
    await socket.waitForEvent('framesent');
    await page.click('[data-testid=new-session]');
    await expect.poll(() => page.locator('[data-testid=session-item]').count()).toBe(before + 1);
    await page.reload();
    // signed in after the reload: the window either returns to the project it showed (issue: reload returns to the
    // same place) or, before that place was written, lists the project among the recent ones — both need projects.list
    await page
      .locator('.recent li', { hasText: 'greeter-' })
      .or(page.locator('.project-name', { hasText: 'greeter-' }))
      .first()
      .waitFor();
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
