/**
 * The window at every width, in a real browser against the web host: side by side with draggable dividers at
 * 1440 and 1024 px (sizes remembered over a reload), chat / review as tabs at 800 px, one column at phone width;
 * nothing scrolls sideways at any width; the review toolbar is one row at 1440 px. A reload returns to the same
 * project, session and message row. A second host on the same data folder (another window, another process):
 * each sees the other's new session and its messages live. Screenshots at 1440, 1024, 800 and 390 px, light and
 * dark.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { serve } from '../src/main/host/serve';
import type { Served } from '../src/main/host/serve';
import { ROOT, openApp, openPage, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;
let root: string;
let second: Served | undefined;

const LONG = `${'averyveryverylongunbrokenidentifier'.repeat(8)} and then words.`;
const CODE = "```ts\nexport const table = ['" + 'x'.repeat(300) + "'];\n```";

/** Widths where something scrolls sideways: the page itself, or a pane wider than its box. */
const SIDEWAYS = `(() => {
  const out = [];
  const doc = document.scrollingElement;
  if (doc.scrollWidth > window.innerWidth + 1) out.push('page ' + doc.scrollWidth + ' > ' + window.innerWidth);
  for (const sel of ['.sidebar', '.main', '.message-list', '.review', '.review-toolbar', '.chat-head', '.composer', '.topbar']) {
    for (const el of document.querySelectorAll(sel)) {
      if (el.closest('[hidden]')) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(sel + ' ' + el.scrollWidth + ' > ' + el.clientWidth);
    }
  }
  return out;
})()`;

async function sideways(p: Page = page): Promise<string[]> {
  return (await p.evaluate(SIDEWAYS)) as string[];
}

async function send(p: Page, text: string): Promise<void> {
  await p.fill('[data-testid=composer]', text);
  await p.press('[data-testid=composer]', 'Enter');
}

async function idle(p: Page = page): Promise<void> {
  await p.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
}

async function width(p: Page, selector: string): Promise<number> {
  return p.locator(selector).evaluate((el) => Math.round(el.getBoundingClientRect().width));
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [{ permission: 'edit', pattern: '*', action: 'allow' }],
  });
  page = ui.page;
  root = join(ui.app.temp, 'layout-project');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/app.js'), 'export const answer = 41;\n');
  await page.setViewportSize({ width: 1440, height: 820 });
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
  await page.click('[data-testid=new-session]');
  model.queue.push(
    { tool: 'write', args: { filePath: 'src/answer.js', content: 'export const answer = 42;\n' } },
    { chunks: [`Changed the answer. ${LONG}\n\n${CODE}`] },
  );
  await page.locator('[data-testid=chat]').waitFor();
  // A turn is over when its idle state arrived (events, not the DOM: the list is virtualized).
  const turnsDone = (n: number): Promise<void> =>
    vi.waitFor(
      () => {
        if (ui.events.filter((e) => e.type === 'session.state').length < 2 * n) throw new Error(`turn ${n} not over`);
      },
      { timeout: 60_000, interval: 50 },
    );
  await send(page, 'Fix the answer');
  await turnsDone(1);
  await idle();
  // More turns, so the transcript scrolls.
  for (let i = 1; i <= 5; i++) {
    model.queue.push({ chunks: [`Reply ${i}.\n\n${'A paragraph of text that takes some room. '.repeat(12)}`] });
    await send(page, `Question ${i}`);
    await turnsDone(i + 1);
    await idle();
  }
});

afterAll(async () => {
  await second?.close();
  await ui?.close();
  await model?.close();
});

describe('layout', () => {
  test('1440 px: three panes, dividers remember their size, review toolbar on one row, nothing sideways', async () => {
    expect(await page.locator('.shell').getAttribute('data-layout')).toBe('wide');
    await page.locator('[data-testid=review-point]').waitFor();
    const toolbar = page.locator('.review-toolbar');
    // One row: every item's box overlaps every other item's box vertically.
    const boxes = await toolbar.evaluate((el) =>
      [...el.children].map((c) => [c.getBoundingClientRect().top, c.getBoundingClientRect().bottom]),
    );
    expect(boxes.length).toBeGreaterThan(5);
    const top = Math.max(...boxes.map((b) => b[0] as number));
    const bottom = Math.min(...boxes.map((b) => b[1] as number));
    expect(top).toBeLessThan(bottom);
    await expect.poll(() => sideways(), { timeout: 10_000 }).toEqual([]); // the panes settle (a diff lays out when its hunks load)
    const before = await width(page, '.review');
    const handle = page.locator('[data-testid=divider-review]');
    const box = await handle.boundingBox();
    if (!box) throw new Error('no divider');
    await page.mouse.move(box.x + 3, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + 3 - 80, box.y + 200, { steps: 5 });
    await page.mouse.up();
    expect(await width(page, '.review')).toBe(before + 80);
    await page.locator('[data-testid=divider-sidebar]').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await width(page, '.sidebar')).toBe(220);
    await expect.poll(() => sideways(), { timeout: 10_000 }).toEqual([]); // the panes settle (a diff lays out when its hunks load)
    await page.reload();
    await page.locator('.review').waitFor();
    expect([await width(page, '.review'), await width(page, '.sidebar')]).toEqual([before + 80, 220]);
    expect(ui.errors).toEqual([]);
  });

  test('a reload returns to the same project, session and message row', async () => {
    // Scroll so that the third message row is the first one in view. The list is virtualized and may have been left
    // scrolled to its end by the test before: go to the top first, so the row is rendered whatever came before.
    // Each scroll is the user's (a wheel event first): only the user's own scrolling stops the list following.
    await page.locator('[data-testid=message-list] .row').first().waitFor();
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid=message-list]');
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: -1 }));
      el.scrollTop = 0;
      el.dispatchEvent(new Event('scroll'));
    })()`);
    await page.locator('.row[data-index="3"]').waitFor();
    await page.evaluate(`(() => {
      const el = document.querySelector('[data-testid=message-list]');
      const row = el.querySelector('.row[data-index="3"]');
      el.dispatchEvent(new WheelEvent('wheel', { deltaY: 1 }));
      el.scrollTop += row.getBoundingClientRect().top - el.getBoundingClientRect().top + 2;
      el.dispatchEvent(new Event('scroll'));
    })()`);
    const firstInView = async (): Promise<number> =>
      (await page.evaluate(`(() => {
        const el = document.querySelector('[data-testid=message-list]');
        const top = el.getBoundingClientRect().top;
        const rows = [...el.querySelectorAll('.row')].filter((r) => r.getBoundingClientRect().bottom > top + 1);
        return Math.min(...rows.map((r) => Number(r.getAttribute('data-index'))));
      })()`)) as number;
    const at = await firstInView();
    expect(at).toBe(3);
    await page.reload();
    await page.locator('.message.assistant').first().waitFor();
    expect(await page.locator('.project-name').textContent()).toBe('layout-project');
    expect(await page.locator('[data-testid=session-item].active').textContent()).toContain('Fix the answer');
    await expect.poll(firstInView).toBe(3);
    expect(ui.errors).toEqual([]);
  });

  test('1024 side by side, 800 tabs, 390 one column; nothing sideways; screenshots', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const w of [1440, 1024, 800, 390]) {
        await page.setViewportSize({ width: w, height: 820 });
        await expect
          .poll(() => page.locator('.shell').getAttribute('data-layout'))
          .toBe(w >= 1000 ? 'wide' : w >= 600 ? 'tabs' : 'phone');
        await expect.poll(sideways, { timeout: 10_000 }).toEqual([]); // the panes settle after the resize
        await shot(page, `layout-${w}-${scheme}`);
        if (w >= 1000) continue;
        expect(await page.locator('.review').isVisible()).toBe(false);
        await page.click('[data-testid=tab-review]');
        expect(await page.locator('.review').isVisible()).toBe(true);
        expect(await page.locator('.main').isVisible()).toBe(false);
        await expect.poll(sideways, { timeout: 10_000 }).toEqual([]); // the panes settle after the resize
        await shot(page, `layout-${w}-${scheme}-review`);
        if (w < 600) {
          expect(await page.locator('.sidebar').isVisible()).toBe(false);
          await page.click('[data-testid=tab-sessions]');
          expect(await page.locator('.sidebar').isVisible()).toBe(true);
          await shot(page, `layout-${w}-${scheme}-sessions`);
          await page.locator('[data-testid=session-item] .session-title').first().click();
        } else await page.click('[data-testid=tab-chat]');
        await page.locator('.main').waitFor();
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 820 });
    expect(ui.errors).toEqual([]);
  });

  test("two hosts on one data folder: each sees the other's new session and its messages live", async () => {
    second = await serve({ projectRoot: ROOT, dataDir: ui.app.dataDir });
    const other = await openPage(ui.browser, second.host.url);
    const p2 = other.page;
    await p2.setViewportSize({ width: 1440, height: 820 });
    await p2.fill('[data-testid=project-path]', root);
    await p2.click('[data-testid=open-project]');
    await p2.locator('[data-testid=session-item]', { hasText: 'Fix the answer' }).waitFor();
    await p2.click('[data-testid=new-session]');
    model.queue.push({ chunks: ['Hello from the second window.'] });
    await send(p2, 'Written in window two');
    await idle(p2);
    // Window one: the session appears in its list without a reload, with its messages.
    const item = page.locator('[data-testid=session-item]', { hasText: 'Written in window two' });
    await item.waitFor({ timeout: 30_000 });
    await item.locator('.session-title').click();
    await page.locator('.message.assistant .markdown', { hasText: 'Hello from the second window.' }).waitFor();
    // While window one watches it, window two's next turn arrives live.
    model.queue.push({ chunks: ['A second answer, seen live.'] });
    await send(p2, 'And once more');
    await page.locator('.message.assistant .markdown', { hasText: 'A second answer, seen live.' }).waitFor({
      timeout: 30_000,
    });
    await idle(p2);
    await shot(page, 'layout-two-windows');
    expect(ui.errors).toEqual([]);
    expect(other.errors).toEqual([]);
  });
});
