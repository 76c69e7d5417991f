/**
 * Tab order (issue 17 §5: invisible Monaco inputs are not Tab stops). The web host over real services, Debian's
 * Chromium, a replayed turn so the review shows a Monaco diff, and a file open in the Monaco editor. Tab is walked
 * through the whole window in each state — review inline, review side by side, the file editor, and the 800 px tab
 * layout — and every element that takes focus must be visible: not hidden, not transparent, at least 4 × 4 px on
 * screen; never Monaco's hidden input (its EditContext element or textarea). The editor itself is reached through
 * its box (features/files/editor-stop.ts): Enter goes in, Escape comes out, Tab moves on.
 * The message box is a field like any other: Tab moves on from it (to the mode switch, the model picker, Send and the
 * review) and Shift+Tab back, so each walk runs from the window's start to its end through the box, and back again;
 * the mode cycles with Ctrl/Cmd+. instead. Screenshots: test-results/e2e/tab-editor-*.png.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, shot, type AppInBrowser } from './harness';

let ui: AppInBrowser;
let page: Page;

interface Focused {
  desc: string;
  visible: boolean;
  monacoInput: boolean;
  composer: boolean;
}

/** What has focus now: a short description, whether it is visible, and whether it is Monaco's hidden input. */
const PROBE = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { desc: 'body', visible: true, monacoInput: false, composer: false };
  const r = el.getBoundingClientRect();
  const id = el.getAttribute('data-testid');
  const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
  const desc = el.tagName.toLowerCase() + cls + (id ? '[' + id + ']' : '') + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
  const visible = el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && r.width >= 4 &&
    r.height >= 4 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
  const monacoInput = !!el.closest('.monaco-editor') && el.matches('textarea, .native-edit-context, [contenteditable]');
  return { desc, visible, monacoInput, composer: id === 'composer' };
})()`;

const focused = async (): Promise<Focused> => (await page.evaluate(PROBE)) as Focused;

/**
 * Presses `key` (Tab or Shift+Tab) from the current focus until the end of the window (body), `until` (included),
 * or `max` steps.
 */
async function walk(max = 120, key = 'Tab', until?: (f: Focused) => boolean): Promise<Focused[]> {
  const seen: Focused[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused();
    if (f.desc === 'body') break;
    seen.push(f);
    if (until?.(f)) break;
  }
  return seen;
}

/** The whole window's Tab order: from its start to its end, through the message box. */
async function walkWindow(): Promise<Focused[]> {
  await page.locator('.brand').focus(); // the window's first stop (Chromium tabs on from the last click otherwise)
  return [await focused(), ...(await walk())];
}

function expectAllVisible(stops: Focused[]): void {
  if (process.env['TAB_ORDER_DEBUG']) console.log(stops.map((f) => f.desc).join('\n'));
  expect(stops.length).toBeGreaterThan(10);
  expect(stops.filter((f) => !f.visible || f.monacoInput).map((f) => f.desc)).toEqual([]);
}

describe('Tab order: every stop is visible, Monaco inputs are not stops', () => {
  beforeAll(async () => {
    ui = await openApp();
    page = ui.page;
    await page.setViewportSize({ width: 1440, height: 820 });
    const root = join(ui.app.temp, 'proj');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'r.txt'), '1\n2\n3\n');
    const dir = join(ui.app.temp, 'rec');
    await mkdir(dir, { recursive: true });
    const calls = [
      { seq: 1, tool: 'read', path: 'r.txt', orig_outcome: 'ok', response_index: 0 },
      {
        seq: 2,
        tool: 'edit',
        path: 'r.txt',
        old_string: '2\n',
        new_string: 'two\n',
        orig_outcome: 'ok',
        response_index: 0,
      },
    ];
    await writeFile(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const file = { path: 'r.txt', encoding: 'utf8', content: '1\n2\n3\n', mode: '100644' };
    await writeFile(join(dir, 'files.jsonl'), JSON.stringify(file) + '\n');
    await writeFile(join(dir, 'source.json'), JSON.stringify({ id: 'tab-order', description: 'Tab order e2e.' }));
    await page.getByTestId('project-path').fill(root);
    await page.getByTestId('open-project').click();
    await page.getByTestId('new-session').click();
    await page.getByTestId('composer').fill(`/replay ${dir}`);
    await page.getByTestId('composer').press('Enter');
    await page.locator('[data-testid=review-panel] [data-testid=hunk-bar]').first().waitFor({ timeout: 30_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    await page.locator('[data-testid=review-diff-editor] .editor.modified').waitFor();
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('review, inline and side by side: the hunk bar buttons are stops, the diff editors’ inputs are not', async () => {
    const mode = await page.getByTestId('mode-switch').textContent();
    const inline = await walkWindow();
    expectAllVisible(inline);
    expect(inline.some((f) => f.desc.includes('[hunk-keep]'))).toBe(true);
    // Tab leaves the message box: the controls after it are reached, and the mode is left as it was.
    const ids = inline.map((f) => /\[([\w-]+)\]/.exec(f.desc)?.[1]);
    const box = ids.indexOf('composer');
    expect(box).toBeGreaterThan(0);
    expect(ids.slice(box + 1, box + 3)).toEqual(['mode-switch', 'model-picker']);
    expect(ids.indexOf('hunk-keep')).toBeGreaterThan(box);
    expect(await page.getByTestId('mode-switch').textContent()).toBe(mode);
    // Shift+Tab walks the same stops back to the window's start, through the box.
    const back = await walk(120, 'Shift+Tab', (f) => f.desc.startsWith('button.brand'));
    expect(back.map((f) => f.desc)).toEqual(inline.map((f) => f.desc).reverse());
    // The mode cycles from the box with its own key (chat.mode).
    await page.getByTestId('composer').focus();
    await page.keyboard.press('Control+.');
    await expect.poll(() => page.getByTestId('mode-switch').textContent()).not.toBe(mode);
    await page.keyboard.press('Control+.');
    await expect.poll(() => page.getByTestId('mode-switch').textContent()).toBe(mode);
    await page.getByTestId('review-side-by-side').check();
    await page.locator('[data-testid=review-diff-editor] .editor.original').waitFor();
    const side = await walkWindow();
    expectAllVisible(side);
    await page.getByTestId('review-side-by-side').uncheck();
  });

  it('the file editor: its box is the stop; Enter goes in, Escape comes out, Tab moves on', async () => {
    await page.click('[data-testid=show-files]');
    await page.locator('[data-testid=file-tree] [data-path="r.txt"]').click();
    await page.locator('[data-testid=code-editor] .monaco-editor').waitFor();
    const stops = await walkWindow();
    expectAllVisible(stops);
    expect(stops.filter((f) => f.desc.includes('[code-editor]'))).toHaveLength(1);

    await page.getByTestId('code-editor').focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused()).monacoInput).toBe(true);
    await page.keyboard.press('End');
    await page.keyboard.type('!');
    await expect.poll(() => page.getByTestId('editor-status').textContent()).toBe('unsaved');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focused()).desc).toMatch(/\[code-editor\]/);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const w of [1440, 1024, 800]) {
        await page.setViewportSize({ width: w, height: 820 });
        await expect.poll(() => page.locator('.shell').getAttribute('data-layout')).toBe(w >= 1000 ? 'wide' : 'tabs');
        if (w < 1000) await page.click('[data-testid=tab-review]');
        await page.getByTestId('code-editor').focus();
        await page.keyboard.press('Shift+Tab');
        await page.keyboard.press('Tab'); // keyboard focus, so the focus ring shows
        await shot(page, `tab-editor-${w}-${scheme}`);
        if (w < 1000) await page.click('[data-testid=tab-chat]');
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 820 });
    await page.getByTestId('code-editor').focus();
    await page.keyboard.press('Tab');
    const next = await focused();
    expect(next.visible && !next.monacoInput && !next.desc.includes('[code-editor]')).toBe(true);
  });

  it('at 800 px (panes as tabs) every stop is visible too', async () => {
    await page.setViewportSize({ width: 800, height: 820 });
    await expect.poll(() => page.locator('.shell').getAttribute('data-layout')).toBe('tabs');
    await page.click('[data-testid=tab-review]');
    await page.click('[data-testid=show-review]');
    await page.locator('[data-testid=review-diff-editor] .editor.modified').waitFor();
    const stops = await walk(); // the chat (and its composer) is hidden behind its tab here
    expectAllVisible(stops);
    await page.click('[data-testid=tab-chat]');
    await page.setViewportSize({ width: 1440, height: 820 });
    expect(ui.errors).toEqual([]);
  });
});
