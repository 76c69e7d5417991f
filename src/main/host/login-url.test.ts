/**
 * Re-issuing the login URL of a running web host (login-url.ts), against a real host over real services: Enter
 * (an empty line) or `url` on its input and SIGUSR2 sent to this process each print a fresh one-time URL whose
 * token signs in exactly once; other lines print a hint and no URL; after stop, neither input nor the signal
 * prints anything.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { startWebHost, type WebHost } from './web';
import { signIn } from './web-test-client';
import { howToReissue, REISSUE_SIGNAL, reissueLoginUrl } from './login-url';

let f: ServicesFixture;
let host: WebHost;

beforeAll(async () => {
  f = await servicesFixture('login-url', { languageServers: false });
  const staticDir = await mkdtemp(join(f.temp, 'static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ router: f.router, subscribe: f.services.subscribe, staticDir });
});

afterAll(async () => {
  await host?.close();
  await f?.close();
});

/** Resolves with the next printed text. */
function nextPrint(waiters: ((t: string) => void)[]): Promise<string> {
  return new Promise((resolve) => waiters.push(resolve));
}

const URL_RE = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{32}/;

describe('re-issuing the login URL', () => {
  test('Enter, `url` and SIGUSR2 each print a fresh one-time URL that signs in once; other lines a hint', async () => {
    const input = new PassThrough();
    const printed: string[] = [];
    const waiters: ((t: string) => void)[] = [];
    const stop = reissueLoginUrl(
      input,
      () => host.issueUrl(),
      (text) => {
        printed.push(text);
        waiters.shift()?.(text);
      },
    );
    try {
      const urls: string[] = [];
      for (const send of ['\n', 'url\n', '  URL  \n', 'signal']) {
        const next = nextPrint(waiters);
        if (send === 'signal') process.kill(process.pid, REISSUE_SIGNAL);
        else input.write(send);
        const text = await next;
        const url = URL_RE.exec(text)?.[0];
        expect(url, text).toBeDefined();
        urls.push(url as string);
      }
      expect(new Set(urls).size).toBe(4);
      expect(urls.every((u) => !u.includes(host.url.split('#')[1] as string))).toBe(true);
      // Each works exactly once.
      let held = 0;
      for (const url of urls) {
        expect(await signIn(url)).toMatch(/^[A-Za-z0-9_-]{32}$/);
        await expect(signIn(url)).rejects.toThrow('sign-in refused: 401');
        held++;
      }
      console.log(`re-issued URLs: ${urls.length} attempts / ${held} held (signed in once, refused the second time)`);
      const hint = nextPrint(waiters);
      input.write('help\n');
      expect(await hint).toBe('Press Enter for a new login URL, or Ctrl+C to stop the host.');
    } finally {
      stop();
    }
    // Stopped: the signal no longer prints (and no longer has a handler of ours), input is not read.
    const before = printed.length;
    expect(process.listeners(REISSUE_SIGNAL)).toHaveLength(0);
    input.write('\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(printed.length).toBe(before);
  });

  test('the start-up hint names Enter and the signal with this process id', () => {
    expect(howToReissue(4242)).toBe(
      'Need another login URL (a second browser, a lost tab)? Press Enter here, or run: kill -USR2 4242',
    );
  });
});
