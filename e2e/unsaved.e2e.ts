/**
 * Unsaved editor edits are never dropped by a project switch, in a real browser against the web host: opening
 * another project while the editor holds edits asks Save / Discard / Cancel — Cancel stays with the edits, Discard
 * opens the other project and leaves the file's bytes as they were, Save writes the edits (through files.save)
 * and then opens it. Screenshots of the question at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fileText, openApp, shot, type AppInBrowser } from './harness';

let ui: AppInBrowser;
let page: Page;
let alpha: string;
let beta: string;

async function editorText(): Promise<string> {
  return (await page.locator('[data-testid=code-editor] .view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/** Opens the project at `root` from the picker (the brand button goes there). */
async function openFromPicker(root: string): Promise<void> {
  await page.click('.topbar .brand');
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
}

/** Opens alpha's src/a.js in the editor and types `text` at its end (unsaved). */
async function editAlpha(text: string): Promise<void> {
  await openFromPicker(alpha);
  await page.locator('.project-name', { hasText: 'alpha' }).waitFor();
  if (!(await page.locator('[data-testid=chat]').count())) await page.click('[data-testid=new-session]');
  await page.locator('[data-testid=chat]').waitFor();
  await page.click('[data-testid=show-files]');
  await page.locator('[data-testid=file-tree] [data-path="src/a.js"]').click();
  await expect.poll(editorText, { timeout: 20_000 }).toContain('export const a = 1;');
  await page.locator('[data-testid=code-editor] .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
  await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('unsaved');
}

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 820 });
}

beforeAll(async () => {
  ui = await openApp();
  page = ui.page;
  await page.setViewportSize({ width: 1440, height: 820 });
  alpha = join(ui.app.temp, 'alpha');
  beta = join(ui.app.temp, 'beta');
  await mkdir(join(alpha, 'src'), { recursive: true });
  await mkdir(beta, { recursive: true });
  await writeFile(join(alpha, 'src/a.js'), 'export const a = 1;\n');
  await writeFile(join(beta, 'b.txt'), 'beta\n');
  await page.waitForSelector('[data-testid=project-picker]');
});

afterAll(async () => {
  await ui?.close();
});

describe('unsaved edits and a project switch', () => {
  test('Cancel stays with the edits; Discard opens the other project and leaves the file as it was', async () => {
    await editAlpha('// mine');
    await openFromPicker(beta);
    const dialog = page.locator('[data-testid=unsaved-dialog]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('src/a.js');
    expect(await dialog.textContent()).toContain(beta);
    await shots('unsaved-switch');

    await page.click('[data-testid=unsaved-cancel]');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.locator('.project-name').textContent()).toBe('alpha');
    // Back to alpha (the same project: no question): the edits are still in the editor, unsaved.
    await openFromPicker(alpha);
    await page.locator('[data-testid=chat]').waitFor();
    expect(await page.locator('[data-testid=unsaved-dialog]').count()).toBe(0);
    await expect.poll(editorText).toContain('// mine');
    expect(await page.locator('[data-testid=editor-status]').textContent()).toBe('unsaved');
    expect(await fileText(alpha, 'src/a.js')).toBe('export const a = 1;\n');

    await openFromPicker(beta);
    await dialog.waitFor();
    await page.click('[data-testid=unsaved-discard]');
    await page.locator('.project-name', { hasText: 'beta' }).waitFor();
    expect(await fileText(alpha, 'src/a.js')).toBe('export const a = 1;\n');
    expect(ui.errors).toEqual([]);
  });

  test('Save writes the edits through the file layer, then opens the other project', async () => {
    await editAlpha('// kept');
    await openFromPicker(beta);
    await page.locator('[data-testid=unsaved-dialog]').waitFor();
    await page.click('[data-testid=unsaved-save]');
    await page.locator('.project-name', { hasText: 'beta' }).waitFor();
    expect(await fileText(alpha, 'src/a.js')).toBe('export const a = 1;\n// kept');
    expect(ui.errors).toEqual([]);
  });
});
