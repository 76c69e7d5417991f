/**
 * The web host's doors, from a client that can forge anything a browser would not (real host, real services):
 * no cookie is ever set; the token of the printed URL is in its fragment and works once; the exchange and the
 * socket refuse other origins, forged or missing credentials, stolen cookies and a credential without the app's
 * protocol; the host never echoes the credential back. Attempts / held printed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_PROTOCOL, CHECK_PATH, CREDENTIAL_PROTOCOL_PREFIX, EXCHANGE_PATH } from '../../shared/web-auth';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { startWebHost, type WebHost } from './web';
import { callOn, openSocket, protocolsFor, signIn } from './web-test-client';

let f: ServicesFixture;
let host: WebHost;
let origin: string;

beforeAll(async () => {
  f = await servicesFixture('auth', { languageServers: false });
  const staticDir = await mkdtemp(join(f.temp, 'static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ router: f.router, subscribe: f.services.subscribe, staticDir });
  origin = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host?.close();
  await f?.close();
});

function post(path: string, headers: Record<string, string>, body = ''): Promise<Response> {
  return fetch(`${origin}${path}`, { method: 'POST', headers, body });
}

describe('signing in', () => {
  test('the printed URL carries its token in the fragment; pages are public and set no cookie', async () => {
    expect(host.url).toMatch(new RegExp(`^${origin}/#token=[A-Za-z0-9_-]{32}$`));
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain(`ws://127.0.0.1:${host.port}`);
  });

  test('a token works once, from this origin only; the credential it gives opens the socket', async () => {
    const token = new URLSearchParams(new URL(host.issueUrl()).hash.slice(1)).get('token') as string;
    const body = JSON.stringify({ token });
    const json = { 'content-type': 'application/json' };
    expect((await post(EXCHANGE_PATH, { ...json, origin: 'http://127.0.0.1:1' }, body)).status).toBe(403);
    expect((await post(EXCHANGE_PATH, json, body)).status).toBe(403); // no Origin at all
    expect((await post(EXCHANGE_PATH, { ...json, origin }, '{"token":5}')).status).toBe(400);
    expect((await post(EXCHANGE_PATH, { ...json, origin }, 'x'.repeat(10_000))).status).toBe(413);
    const first = await post(EXCHANGE_PATH, { ...json, origin }, body);
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toBeNull();
    const { value } = (await first.json()) as { value: { credential: string } };
    expect(value.credential).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const again = await post(EXCHANGE_PATH, { ...json, origin }, body);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    const ws = await openSocket(host.port, protocolsFor(value.credential));
    if (typeof ws === 'number') throw new Error(`refused ${ws}`);
    expect(ws.protocol).toBe(APP_PROTOCOL); // the credential is never echoed back
    expect(await callOn(ws, 'app.info', {})).toMatchObject({ ok: true });
    ws.close();
    const check = (c: string): Promise<number> =>
      post(CHECK_PATH, { origin, authorization: `Bearer ${c}` }).then((r) => r.status);
    expect(await check(value.credential)).toBe(204);
    expect(await check('forged')).toBe(401);
  });
});

describe('hostile clients', () => {
  test('forged origins, forged or stolen credentials, cookies: every upgrade is refused', async () => {
    const credential = await signIn(host.issueUrl());
    const valid = protocolsFor(credential);
    const attempts: { name: string; protocols: string[]; headers: Record<string, string>; status: number }[] = [
      { name: 'no credential', protocols: [APP_PROTOCOL], headers: { origin }, status: 401 },
      { name: 'forged credential', protocols: protocolsFor('A'.repeat(32)), headers: { origin }, status: 401 },
      {
        name: 'a token instead of a credential',
        protocols: protocolsFor(host.issueUrl().split('=')[1] as string),
        headers: { origin },
        status: 401,
      },
      {
        name: 'credential without the app protocol',
        protocols: [`${CREDENTIAL_PROTOCOL_PREFIX}${credential}`],
        headers: { origin },
        status: 401,
      },
      {
        name: 'a cookie, any cookie',
        protocols: [APP_PROTOCOL],
        headers: { origin, cookie: `landfall_session=${credential}` },
        status: 401,
      },
      {
        name: 'credential as a Bearer header',
        protocols: [APP_PROTOCOL],
        headers: { origin, authorization: `Bearer ${credential}` },
        status: 401,
      },
      {
        name: 'valid credential, another origin',
        protocols: valid,
        headers: { origin: 'http://127.0.0.1:1' },
        status: 403,
      },
      {
        name: 'valid credential, a remote origin',
        protocols: valid,
        headers: { origin: 'https://evil.example' },
        status: 403,
      },
      { name: 'valid credential, no origin', protocols: valid, headers: {}, status: 403 },
      {
        name: 'valid credential, DNS-rebound host',
        protocols: valid,
        headers: { origin, host: 'evil.example' },
        status: 404,
      },
    ];
    let held = 0;
    const failures: string[] = [];
    for (const a of attempts) {
      const r = await openSocket(host.port, a.protocols, a.headers);
      if (r === a.status) held++;
      else {
        failures.push(`${a.name}: ${typeof r === 'number' ? r : 'open'}`);
        if (typeof r !== 'number') r.close();
      }
    }
    console.log(`[hostile] web host upgrades: ${attempts.length} attempts / ${held} held`);
    expect(failures).toEqual([]);
    const ok = await openSocket(host.port, valid);
    expect(typeof ok).not.toBe('number');
    if (typeof ok !== 'number') ok.close();
  });
});
