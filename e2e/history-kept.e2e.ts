/**
 * Files the user changed after the agent are never overwritten silently (fixtures/bugs/README.md B31): replay the sample session, edit a
 * file the agent wrote by hand on disk, /undo — the chat's notice names the file and why, and the file keeps the
 * hand edit byte for byte while the rest of the turn is undone. "Overwrite them anyway" asks first; confirmed, it
 * reverts to the same boundary with force and the file equals the snapshot from before the turn.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  SAMPLE,
  fileText,
  sampleEndState,
  sampleProject,
  shot,
  openApp,
  type AppInBrowser,
  type AppUnderTest,
} from './harness';

const ALLOW_ALL = {
  defaultProvider: 'ollama',
  providers: [{ id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }],
  permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
};

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];

async function send(text: string): Promise<void> {
  await page.fill('[data-testid=composer]', text);
  await page.press('[data-testid=composer]', 'Enter');
}

beforeAll(async () => {
  ui = await openApp(ALLOW_ALL);
  ({ app, page, errors } = ui);
});

afterAll(async () => {
  await ui?.close();
});

describe('history moves that keep the user’s files', () => {
  test('/undo keeps a hand-edited file and says so; "Overwrite them anyway" (confirmed) restores the snapshot', async () => {
    const root = await sampleProject(app.temp, 'greeter-kept');
    const end = await sampleEndState();
    const before = await fileText(join(SAMPLE, 'project'), 'README.md');
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await send('/replay sample');
    await page.getByText(/Replayed turn 2 of 2/).waitFor({ timeout: 60_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    expect(await fileText(root, 'README.md')).toBe(end['README.md']);
    expect(await fileText(root, 'test/shout.test.js')).toBe(end['test/shout.test.js']);

    const handEdited = `${end['README.md'] ?? ''}\nNotes I typed myself — keep them.\r\n`;
    await writeFile(join(root, 'README.md'), handEdited);
    await send('/undo');
    const notice = page.locator('[data-testid=history-notice]');
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.getAttribute('data-op')).toBe('undo');
    const kept = notice.locator('[data-testid=kept-file]');
    expect(await kept.count()).toBe(1);
    expect(await kept.first().getAttribute('data-path')).toBe('README.md');
    expect(await kept.first().getAttribute('data-reason')).toBe('changed_after_step');
    expect(await kept.first().innerText()).toContain('you changed it after the agent did');
    // The rest of the turn is undone; the hand edit is untouched, byte for byte.
    expect(await fileText(root, 'README.md')).toBe(handEdited);
    expect(await fileText(root, 'test/shout.test.js')).toBeNull();
    await shot(page, 'history-kept-01-notice');

    await notice.locator('[data-testid=overwrite-kept]').click();
    await notice.locator('[data-testid=overwrite-confirm-text]').waitFor();
    expect(await fileText(root, 'README.md')).toBe(handEdited);
    await shot(page, 'history-kept-02-confirm');
    await notice.locator('[data-testid=overwrite-confirm]').click();
    await notice.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await fileText(root, 'README.md')).toBe(before);
    expect(await fileText(root, 'test/shout.test.js')).toBeNull();
    expect(errors).toEqual([]);
  });
});
