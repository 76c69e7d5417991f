/**
 * What a new user breaks by hand while `npm run serve` runs, in Chromium against the web host:
 *   - settings.json edited into invalid JSON: after a reload the home and Settings screens say which line is
 *     wrong; Save is refused; "Reset to defaults" keeps the old bytes as settings.json.bak-<time> and says so.
 *   - a FILE typed into the project picker: a typed not_a_directory error, and Recent stays empty.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { shot, openApp, type AppInBrowser, type AppUnderTest } from './harness';

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];

// A key without its quotes (comments and trailing commas would be fine): the error is on line 3, column 3.
const BROKEN =
  '{\n  "defaultProvider": "ollama",\n  notes: "the GPU box answers on 11434",\n  "providers": [],\n  "permissions": []\n}\n';

beforeAll(async () => {
  ui = await openApp();
  ({ app, page, errors } = ui);
});

afterAll(async () => {
  await ui?.close();
});

describe('settings.json broken while the app runs', () => {
  test('home and Settings say which line; Save is refused; Reset keeps a backup and says where', async () => {
    await page.waitForSelector('[data-testid=first-run]');
    const file = join(app.dataDir, 'settings.json');
    await writeFile(file, BROKEN);
    await page.reload();
    const home = page.locator('[data-testid=settings-load-error]');
    await home.waitFor();
    expect(await home.innerText()).toContain('settings.json is not valid JSON at line 3, column 3');
    expect(await page.getByText('No model provider is set up yet').count()).toBe(0);
    await shot(page, 'settings-error-home');

    await page.getByRole('button', { name: 'Open Settings' }).click();
    const card = page.locator('[data-testid=settings] [data-testid=settings-load-error]');
    await card.waitFor();
    expect(await card.innerText()).toMatch(/line 3, column 3[\s\S]*Reset to defaults/);
    expect(await page.locator('[data-testid=save-settings]').isDisabled()).toBe(true);
    // no form over a file that cannot be read: nothing to edit that could be mistaken for the user's settings
    expect(await page.locator('[data-testid=providers]').count()).toBe(0);
    await shot(page, 'settings-error-settings');
    expect(await readFile(file, 'utf8')).toBe(BROKEN);

    await page.locator('[data-testid=reset-settings]').click();
    const notice = page.locator('[data-testid=settings-backup]');
    await notice.waitFor();
    const backup =
      /(\S+settings\.json\.bak-\d{8}-\d{6}\S*)/.exec(await notice.innerText())?.[1]?.replace(/\.$/, '') ?? '';
    expect(await readFile(backup, 'utf8')).toBe(BROKEN);
    expect(existsSync(file)).toBe(false);
    expect(await page.locator('[data-testid=settings-load-error]').count()).toBe(0);
    expect(await page.locator('[data-testid=save-settings]').isDisabled()).toBe(false);
    expect(await page.locator('[data-testid=provider-card]').count()).toBe(4);
    await shot(page, 'settings-reset-backup');

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByText('No model provider is set up yet').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the project picker', () => {
  test('a file path is refused with not_a_directory; nothing is added to Recent', async () => {
    const file = join(app.temp, 'README.md');
    await writeFile(file, '# not a project\n');
    await page.locator('[data-testid=project-path]').fill(file);
    await page.locator('[data-testid=open-project]').click();
    const banner = page.locator('[data-testid=error-banner]');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('not_a_directory');
    expect(await banner.innerText()).toContain(`${file} is a file, not a folder.`);
    expect(await page.locator('[data-testid=project-picker]').count()).toBe(1);
    expect(await page.getByText('No projects yet.').count()).toBe(1);
    await shot(page, 'picker-file-path');
    await page.reload();
    await page.locator('[data-testid=project-picker]').waitFor();
    expect(await page.getByText('No projects yet.').count()).toBe(1);
  });
});
