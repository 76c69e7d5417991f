/**
 * Re-issuing the one-time login URL from the running host (src/main/host/login-url.ts), in real Chromium: the
 * host's first URL is spent by the first page; a second browser (a new context: its own localStorage) opening the
 * spent URL is told it is not signed in and how to get a new URL; Enter on the host's input prints a fresh URL
 * that signs the second browser in — once. Screenshots of the signed-out banner at 1440, 1024 and 800 px, light
 * and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PassThrough } from 'node:stream';
import type { Page } from 'playwright-core';
import { openApp, openPage, shot, type AppInBrowser } from './harness';
import { reissueLoginUrl } from '../src/main/host/login-url';

let ui: AppInBrowser;
const input = new PassThrough();
const printed: string[] = [];
let stop: () => void = () => undefined;

async function shots(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
}

beforeAll(async () => {
  ui = await openApp();
  await ui.page.waitForSelector('[data-testid=project-picker]');
  stop = reissueLoginUrl(
    input,
    () => ui.app.served.host.issueUrl(),
    (text) => printed.push(text),
  );
});

afterAll(async () => {
  stop();
  await ui?.close();
});

/** Presses Enter on the host's input and resolves with the URL it printed. */
async function pressEnter(): Promise<string> {
  const before = printed.length;
  input.write('\n');
  await expect.poll(() => printed.length).toBe(before + 1);
  const url = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(printed[before] as string)?.[0];
  expect(url).toBeDefined();
  return url as string;
}

describe('another login URL from the running host', () => {
  test('a second browser is told how to get a new URL; Enter on the host gives one that signs it in once', async () => {
    const spent = await openPage(ui.browser, ui.app.served.host.url);
    const banner = spent.page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('unauthorized');
    expect(await banner.textContent()).toContain('press Enter in its terminal');
    await shots(spent.page, 'login-signed-out');
    await spent.page.context().close();

    const url = await pressEnter();
    expect(url).not.toBe(ui.app.served.host.url);
    const second = await openPage(ui.browser, url);
    await second.page.waitForSelector('[data-testid=project-picker]');
    expect(await second.page.getByTestId('error-banner').count()).toBe(0);
    expect(second.errors).toEqual([]);
    await second.page.context().close();

    // The fresh URL worked once: a third browser opening it is not signed in.
    const third = await openPage(ui.browser, url);
    await third.page.getByTestId('error-banner').waitFor();
    expect(await third.page.getByTestId('error-banner').getAttribute('data-code')).toBe('unauthorized');
    await third.page.context().close();
    expect(ui.errors).toEqual([]);
  });
});
