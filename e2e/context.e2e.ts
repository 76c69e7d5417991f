/**
 * The context meter in a real browser against the web host: a project with an AGENTS.md over the per-file cap,
 * the sample recording replayed; the chat header shows the tokens in use against the window (the figure main's
 * ledger gives for the last request), and opening it lists the tokens by category and the instruction file with
 * its size and the cut, the cap stated. Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, sampleProject, shot, type AppInBrowser } from './harness';

const ALLOW_EDITS = {
  defaultProvider: 'ollama',
  providers: [{ id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }],
  permissions: [{ permission: 'edit', pattern: '*', action: 'allow' }],
};

let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  ui = await openApp(ALLOW_EDITS);
  page = ui.page;
});
afterAll(async () => {
  await ui?.close();
});

describe('context meter', () => {
  test('shows tokens in use against the window, the categories, and the instruction file with its cut', async () => {
    const root = await sampleProject(ui.app.temp, 'meter');
    const rules = `# Project rules\n${'Keep every function under forty lines and name it for what it does.\n'.repeat(600)}`;
    await writeFile(join(root, 'AGENTS.md'), rules);
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await page.fill('[data-testid=composer]', '/replay sample');
    await page.press('[data-testid=composer]', 'Enter');
    await page.getByText(/Replayed turn 2 of 2/).waitFor({ timeout: 60_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });

    const meter = page.locator('[data-testid=context-meter]');
    await expect.poll(() => meter.locator('.meter-text').textContent()).toMatch(/^\d+(\.\d)?k \/ 128k$/);
    const summary = meter.locator('summary');
    expect(await summary.getAttribute('title')).toMatch(
      /^[\d,]+ of 128,000 tokens in use \([\d.]+%\) \(assumed: no window is known for this model\) — estimated$/,
    );
    await summary.click();
    const panel = meter.locator('.meter-panel');
    await panel.waitFor();
    expect(await panel.locator('th').allTextContents()).toEqual([
      'System',
      'Instructions',
      'Tools',
      'History',
      'Tool results',
    ]);
    expect(await panel.locator('.meter-files-head').textContent()).toBe('Instruction files (cap 32.0 KB per file)');
    const file = panel.locator('.meter-files li.cut');
    const size = Buffer.byteLength(rules);
    await expect.poll(() => file.textContent()).toContain(join(root, 'AGENTS.md'));
    expect(await file.textContent()).toContain(`${(size / 1024).toFixed(1)} KB — cut:`);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 1024, 800]) {
        await page.setViewportSize({ width, height: 820 });
        await shot(page, `context-meter-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(ui.errors).toEqual([]);
  });
});
