/**
 * The chat follows a streaming answer to its bottom while the user stays there — also through a window resize
 * (1440 → 800 → 1440 px: the panes become tabs and back) and messages queued under a running turn (the queue grows
 * above the message box, so the list gets shorter). Only the user's own scrolling up stops the following.
 * Scripted model on the web host, Debian's Chromium.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

/** How far (px) the message list's scroll position is above its bottom. */
const gap = async (): Promise<number> =>
  (await page.evaluate(`(() => {
    const el = document.querySelector('[data-testid=message-list]');
    return el ? Math.round(el.scrollHeight - el.scrollTop - el.clientHeight) : -1;
  })()`)) as number;

/** A long answer, streamed in many chunks at the provider's pace. */
const answer = (tag: string, lines = 160): { chunks: string[]; everyMs: number } => ({
  chunks: Array.from(
    { length: lines },
    (_, i) => `${tag} line ${i + 1}: enough words here to wrap onto more lines when the window gets narrow.\n\n`,
  ),
  everyMs: 25,
});

async function layout(width: number): Promise<void> {
  await page.setViewportSize({ width, height: 820 });
  await expect.poll(() => page.locator('.shell').getAttribute('data-layout')).toBe(width >= 1000 ? 'wide' : 'tabs');
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
  });
  page = ui.page;
  await page.setViewportSize({ width: 1440, height: 820 });
  const root = join(ui.app.temp, 'follow');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'a.txt'), 'a\n');
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
  await page.click('[data-testid=new-session]');
  await page.locator('[data-testid=chat]').waitFor();
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('following the bottom of the chat', () => {
  test('a streaming answer stays followed through a resize to 800 px and back', async () => {
    // Earlier turns above (rows the list measures again when the width changes).
    for (const n of [1, 2, 3, 4, 5, 6]) {
      model.queue.push({ chunks: answer(`earlier${n}`, 12).chunks });
      await page.fill('[data-testid=composer]', `Earlier question ${n}`);
      await page.press('[data-testid=composer]', 'Enter');
      await page.locator('.message.assistant', { hasText: `earlier${n} line 12:` }).waitFor({ timeout: 20_000 });
      await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    }
    model.queue.push(answer('first'));
    await page.fill('[data-testid=composer]', 'Write a long answer');
    await page.press('[data-testid=composer]', 'Enter');
    // Mid-stream: the list scrolls (content taller than the view) and the answer is still coming.
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'first line 40:' }).count(), { timeout: 20_000 })
      .toBe(1);
    // The window dragged narrower step by step, then wider again.
    for (const w of [1300, 1100, 900, 800]) await layout(w);
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'first line 70:' }).count(), { timeout: 20_000 })
      .toBe(1);
    for (const w of [900, 1100, 1300, 1440]) await layout(w);
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'first line 100:' }).count(), { timeout: 20_000 })
      .toBe(1);
    await expect.poll(gap).toBeLessThanOrEqual(2);
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    await expect.poll(gap).toBeLessThanOrEqual(2);
    await shot(page, 'follow-after-resize');
    expect(ui.errors).toEqual([]);
  });

  test('messages queued under a running turn do not stop the following', async () => {
    model.queue.push(answer('second'), answer('third', 40), answer('fourth', 40));
    await page.fill('[data-testid=composer]', 'Another long answer');
    await page.press('[data-testid=composer]', 'Enter');
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'second line 20:' }).count(), { timeout: 20_000 })
      .toBe(1);
    for (const m of ['queued one', 'queued two']) {
      await page.fill('[data-testid=composer]', m);
      await page.press('[data-testid=composer]', 'Enter');
    }
    await page.locator('[data-testid=queued-item]').nth(1).waitFor();
    await expect.poll(gap).toBeLessThanOrEqual(2);
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'fourth line 40:' }).count(), { timeout: 30_000 })
      .toBe(1);
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    await expect.poll(gap).toBeLessThanOrEqual(2);
    expect(ui.errors).toEqual([]);
  });

  test('scrolling up by the user stops the following; a resize does not bring it back', async () => {
    model.queue.push(answer('fifth'));
    await page.fill('[data-testid=composer]', 'One more');
    await page.press('[data-testid=composer]', 'Enter');
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'fifth line 20:' }).count(), { timeout: 20_000 })
      .toBe(1);
    await page.locator('[data-testid=message-list]').hover();
    await page.mouse.wheel(0, -1500);
    await expect.poll(gap).toBeGreaterThan(1000);
    await layout(1024);
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    expect(await gap()).toBeGreaterThan(500);
    await layout(1440);
    expect(ui.errors).toEqual([]);
  });

  test('a scroll event that comes late after the wheel (a loaded window) still stops it; a landing at the bottom after scrolling up does not resume it', async () => {
    // Back at the bottom by the user's own wheel (the test before left the list scrolled up).
    await page.locator('[data-testid=message-list]').hover();
    await page.mouse.wheel(0, 100_000);
    await expect.poll(gap).toBeLessThanOrEqual(2);
    model.queue.push(answer('sixth'));
    await page.fill('[data-testid=composer]', 'And one more');
    await page.press('[data-testid=composer]', 'Enter');
    await expect
      .poll(() => page.locator('.message.assistant', { hasText: 'sixth line 20:' }).count(), { timeout: 20_000 })
      .toBe(1);
    await expect.poll(gap).toBeLessThanOrEqual(2);
    // The wheel is handled, then the main thread is busy for 600 ms before the scroll it caused is seen; then
    // the layout puts the list back at its bottom (as a clamp after a resize does) — neither is the user's.
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid=message-list]');
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: -1500 }));
      const until = performance.now() + 600;
      while (performance.now() < until) {}
      el.scrollTop -= 1500;
    })()`);
    await expect.poll(gap).toBeGreaterThan(1000);
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid=message-list]');
      el.scrollTop = el.scrollHeight;
    })()`);
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    expect(await gap()).toBeGreaterThan(500);
    // The user's own way back down resumes it.
    await page.locator('[data-testid=message-list]').hover();
    await page.mouse.wheel(0, 100_000);
    await expect.poll(gap).toBeLessThanOrEqual(2);
    expect(ui.errors).toEqual([]);
  });
});
