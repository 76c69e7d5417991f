/**
 * Trusted folders in Settings, in Chromium against the web host: an open project that is not trusted is said
 * so, with what that means; "Trust this folder" trusts it (trust.json holds it), the list shows it with Revoke,
 * and Revoke takes it back. Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, sampleProject, shot, type AppInBrowser } from './harness';

let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  ui = await openApp();
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
});

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 820 });
}

describe('trusted folders', () => {
  test('an untrusted project is said so; trust and revoke from Settings', async () => {
    const root = await realpath(await sampleProject(ui.app.temp, 'trusty'));
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=open-settings]');
    const section = page.locator('[data-testid=trusted-folders]');
    await section.waitFor();
    expect(await section.locator('[data-testid=trust-project]').innerText()).toMatch(
      /trusty is not trusted\. Landfall does not run the project's own executables/,
    );
    expect(await section.getByText('No folder is trusted.').count()).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await shots('trust-untrusted');

    await page.click('[data-testid=trust-this-folder]');
    const row = section.locator('[data-testid=trusted-folder]');
    await row.waitFor();
    expect(await row.locator('code').innerText()).toBe(root);
    expect(await section.locator('[data-testid=trust-project]').innerText()).toMatch(/trusty is trusted/);
    const onDisk = JSON.parse(await readFile(join(ui.app.dataDir, 'trust.json'), 'utf8'));
    expect(onDisk.folders.map((f: { path: string }) => f.path)).toEqual([root]);
    await section.scrollIntoViewIfNeeded();
    await shots('trust-trusted');

    await row.getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('No folder is trusted.').waitFor();
    expect(await page.locator('[data-testid=trust-this-folder]').count()).toBe(1);
    expect(ui.errors).toEqual([]);
  });
});
