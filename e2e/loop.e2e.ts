/**
 * A runaway loop stopped and the user asked whether to go on, in a real browser against the web host, with a
 * scripted OpenAI-compatible server on 127.0.0.1 playing the model (every request body recorded). The model makes
 * the same bash call five times in a row (every permission on allow): the fifth is not run, the turn stops, and
 * the chat shows the repetition card (the tool, the input, "5 times in a row"). "Go on" is pressed from the
 * keyboard (focus, Enter): the next request's last user message is exactly the continuation text main writes
 * (loop-decision.ts continueText), and the card then says the user let it go on. Screenshots of the waiting card
 * at 1440, 1024 and 800 px, light and dark, and of the answered card.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fileText, openApp, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';
import { continueText } from '../src/main/agent/loop-decision';

const CALL = { command: 'echo checked >> count.txt', description: 'Check the count' };

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  model = await scriptedModel();
  for (let i = 0; i < 5; i++) model.queue.push({ tool: 'bash', args: CALL });
  model.queue.push({ chunks: ['I will stop repeating that call and report what I found.'] });
  ui = await openApp({
    defaultProvider: 'scripted',
    providers: [{ id: 'scripted', kind: 'openai-compatible', baseURL: model.baseURL, model: 'loop-model' }],
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  });
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      await page.locator('[data-testid=loop-stop]').scrollIntoViewIfNeeded();
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 820 });
}

const idle = (): Promise<unknown> => page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });

describe('a runaway loop asks whether to go on', () => {
  test('five identical calls stop the turn; the card shows the call; Go on sends the continuation message', async () => {
    const root = join(ui.app.temp, 'loop-proj');
    await mkdir(root, { recursive: true });
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await page.fill('[data-testid=composer]', 'count the checks');
    await page.press('[data-testid=composer]', 'Enter');

    const card = page.locator('[data-testid=loop-stop][data-state=waiting]');
    await card.waitFor({ timeout: 60_000 });
    await idle();
    expect(model.bodies).toHaveLength(5);
    expect(await fileText(root, 'count.txt')).toBe('checked\n'.repeat(4)); // the fifth call never ran
    expect(await card.locator('.loop-title').textContent()).toBe(
      'Stopped: the agent made the same call 5 times in a row',
    );
    expect(await card.locator('.loop-tool').textContent()).toBe('bash');
    expect(JSON.parse((await card.locator('.loop-input').textContent()) ?? '')).toEqual(CALL);
    // the stop is told once: by the card, not again as the turn's error block below it
    expect(await page.locator('[data-testid=turn-error]').count()).toBe(0);
    await shots('34-loop-stop');

    // keyboard: the button takes focus and Enter presses it
    await card.locator('[data-testid=loop-continue]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=loop-stop][data-state=continue]').waitFor({ timeout: 30_000 });
    await page.locator('text=I will stop repeating that call').waitFor({ timeout: 30_000 });
    await idle();

    expect(model.bodies).toHaveLength(6);
    const users = (model.bodies[5]?.messages ?? []).filter((m) => m.role === 'user');
    const expected = continueText({ tool: 'bash', input: CALL, repeats: 5 });
    expect(users.at(-1)?.content).toBe(expected);
    expect(users.map((m) => m.content)).toContain('count the checks');
    expect(await page.locator('[data-testid=loop-decided]').textContent()).toBe('You let it go on.');
    expect(await page.locator('[data-testid=loop-continue]').count()).toBe(0);
    await page.locator('[data-testid=loop-stop]').scrollIntoViewIfNeeded();
    await shot(page, '35-loop-stop-answered-1280-light');
    expect(ui.errors).toEqual([]);
  });
});
