/**
 * A file no snapshot holds is never deleted by a history move (hostile review): replay the sample session, then
 * ignore the folder of a file the agent created, /undo — the file stays, and the chat's notice names it with the
 * reason `not_captured`. Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
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

describe('history moves never delete what no snapshot holds', () => {
  test('/undo keeps a file no snapshot holds (the user ignored its folder after the agent wrote it) and says why', async () => {
    const root = await sampleProject(app.temp, 'greeter-not-captured');
    const end = await sampleEndState();
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await send('/replay sample');
    await page.getByText(/Replayed turn 2 of 2/).waitFor({ timeout: 60_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    const agentTest = end['test/shout.test.js'] ?? '';
    expect(await fileText(root, 'test/shout.test.js')).toBe(agentTest);
    // The user ignores the folder: from now on no snapshot holds what is in it.
    await writeFile(join(root, '.gitignore'), 'test/\n');
    await send('/undo');
    const notice = page.locator('[data-testid=history-notice]');
    await notice.waitFor({ timeout: 20_000 });
    const kept = notice.locator('[data-testid=kept-file][data-path="test/shout.test.js"]');
    expect(await kept.getAttribute('data-reason')).toBe('not_captured');
    expect(await kept.innerText()).toContain('no snapshot holds it');
    expect(await fileText(root, 'test/shout.test.js')).toBe(agentTest);
    // forcing would not touch it either, so the notice does not offer it
    expect(await notice.locator('[data-testid=overwrite-kept]').count()).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 1024, 800]) {
        await page.setViewportSize({ width, height: 820 });
        await shot(page, `history-kept-not-captured-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 820 });
    expect(errors).toEqual([]);
  });
});
