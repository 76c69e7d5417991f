/**
 * Review end to end: the web host over real services, Debian's Chromium, a recorded session replayed on a
 * temp project. Scrub the timeline, reject one hunk of step 1 while later steps stay, keep another, reject a hunk a
 * later step changed (conflict, nothing written), revert to the first message, unrevert, undo the decisions — every
 * check byte for byte
 * on disk. Every Keep / Reject / Undo click sends exactly one call (review.decide or review.undo): the answer is
 * all the page needs to redraw (counted on the page's socket, from the click up to the next action). Also fixtures/bugs/README.md B41
 * (fixtures/bugs/README.md): typing in the chat while the agent's edits land keeps focus and every character there.
 * Screenshots: test-results/e2e/review-*.png.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fileText, shot, type AppUnderTest, openApp, type AppInBrowser } from './harness';

const base = Array.from({ length: 12 }, (_, i) => `${i + 1}\n`).join('');
const lines = (edits: Record<number, string>): string =>
  Array.from({ length: 12 }, (_, i) => `${edits[i + 1] ?? i + 1}\n`).join('');

/** The recording: turn 1 = step A (3 hunks: lines 2, 5, 8), step B (line 8 again), step C (new notes.txt); turn 2 = step D (line 12). */
async function writeRecording(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const calls = [
    { seq: 1, tool: 'read', path: 'r.txt', orig_outcome: 'ok', response_index: 0 },
    {
      seq: 2,
      tool: 'edit',
      path: 'r.txt',
      old_string: '1\n2\n3\n4\n5\n6\n7\n8\n',
      new_string: '1\ntwo\n3\n4\nfive\n6\n7\neight\n',
      orig_outcome: 'ok',
      response_index: 0,
    },
    {
      seq: 3,
      tool: 'edit',
      path: 'r.txt',
      old_string: 'eight\n',
      new_string: 'EIGHT\n',
      orig_outcome: 'ok',
      response_index: 0,
    },
    { seq: 4, tool: 'write', path: 'notes.txt', content: 'notes\n', orig_outcome: 'ok', response_index: 0 },
    {
      seq: 5,
      tool: 'edit',
      path: 'r.txt',
      old_string: '12\n',
      new_string: 'twelve\n',
      orig_outcome: 'ok',
      response_index: 1,
    },
  ];
  await writeFile(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  await writeFile(
    join(dir, 'files.jsonl'),
    JSON.stringify({ path: 'r.txt', encoding: 'utf8', content: base, mode: '100644' }) + '\n',
  );
  await writeFile(
    join(dir, 'source.json'),
    JSON.stringify({ id: 'review-e2e', description: 'Written for Landfall: review end-to-end recording.' }),
  );
}

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];
let calls: string[];
let events: { type: string; at: number }[];
let project: string;
/** Where the last click's calls start in `calls`; checked when the next action starts. */
let mark = 0;
const clicked = (): void => void (mark = calls.length);
const sentSinceClick = (): string[] => calls.slice(mark);

/** Waits until the review panel reloaded after a pushed change (its timeline, then the point's diff) since `from`. */
async function reloadedSince(from: number): Promise<void> {
  const reloaded = (): boolean => {
    const t = calls.indexOf('review.timeline', from);
    return t >= 0 && calls.indexOf('review.diff', t) > t;
  };
  await expect.poll(reloaded, { timeout: 15_000 }).toBe(true);
}

const bars = (): ReturnType<Page['locator']> => page.locator('[data-testid=review-panel] [data-testid=hunk-bar]');
async function waitDisk(rel: string, want: string | null): Promise<void> {
  await expect.poll(() => fileText(project, rel), { timeout: 15_000 }).toBe(want);
}

describe('review in the app', () => {
  beforeAll(async () => {
    ui = await openApp();
    ({ app, page, errors, calls, events } = ui);
    project = join(app.temp, 'proj');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'r.txt'), base);
    await writeRecording(join(app.temp, 'recording'));
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('replays the recording while the user types in the chat: focus and every character stay there (B41)', async () => {
    await page.getByTestId('project-path').fill(project);
    await page.getByTestId('open-project').click();
    await page.getByTestId('new-session').click();
    const composer = page.getByTestId('composer');
    await composer.fill(`/replay ${join(app.temp, 'recording')}`);
    await composer.press('Enter');
    await composer.click();
    for (const ch of 'abcdef') await page.keyboard.type(ch, { delay: 40 });
    await waitDisk('r.txt', lines({ 2: 'two', 5: 'five', 8: 'EIGHT', 12: 'twelve' }));
    await expect.poll(() => page.locator('[data-testid=timeline-tile]').count(), { timeout: 15_000 }).toBe(4);
    // The turn's last events (its end, the last snapshot) reload the review once more; wait for that reload, so no
    // reload is pending when the clicks below are counted.
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    const reviewEvents = ['snapshot.added', 'session.updated', 'session.state', 'message.removed'];
    await reloadedSince(events.filter((e) => reviewEvents.includes(e.type)).at(-1)?.at ?? 0);
    for (const ch of 'ghi') await page.keyboard.type(ch, { delay: 20 });
    expect(await composer.inputValue()).toBe('abcdefghi');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-testid')")).toBe('composer');
    await composer.fill('');
    await shot(page, 'review-1-after-replay');
  });

  it('scrubs to step 2 and shows its diff', async () => {
    const strip = page.getByTestId('review-timeline');
    await strip.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => strip.getAttribute('aria-valuenow')).toBe('1');
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(() =>
        page
          .locator('[data-testid=review-file]')
          .evaluateAll((els) =>
            els.map((e) => [
              e.getAttribute('data-path'),
              e.querySelector('.file-status')?.textContent,
              e.querySelector('.file-counts')?.textContent,
            ]),
          ),
      )
      .toEqual([['r.txt', 'M', '−1 +1']]);
    await expect
      .poll(() => page.locator('[data-testid=review-diff-editor] .editor.modified').innerText(), { timeout: 10_000 })
      .toContain('EIGHT');
    await shot(page, 'review-2-step2');
  });

  it('rejects hunk 1 of step 1 while steps 2–4 stay, keeps hunk 2 with Ctrl+Y', async () => {
    const strip = page.getByTestId('review-timeline');
    await strip.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBe(3);
    clicked();
    await bars().nth(0).getByTestId('hunk-reject').click();
    await expect.poll(() => bars().nth(0).getAttribute('data-state'), { timeout: 10_000 }).toBe('rejected');
    await waitDisk('r.txt', lines({ 5: 'five', 8: 'EIGHT', 12: 'twelve' }));
    expect(await fileText(project, 'notes.txt')).toBe('notes\n');
    expect(await page.getByTestId('review-pending').innerText()).toBe('2 pending');
    await strip.focus();
    expect(sentSinceClick()).toEqual(['review.decide']);
    clicked();
    await page.keyboard.press('Control+y');
    await expect.poll(() => bars().nth(1).getAttribute('data-state'), { timeout: 10_000 }).toBe('accepted');
    expect(await fileText(project, 'r.txt')).toBe(lines({ 5: 'five', 8: 'EIGHT', 12: 'twelve' }));
    expect(await page.getByTestId('review-pending').innerText()).toBe('1 pending');
    await shot(page, 'review-3-rejected-kept');
  });

  it('answers a conflict for the hunk step 2 changed, writing nothing', async () => {
    expect(sentSinceClick()).toEqual(['review.decide']);
    clicked();
    await bars().nth(2).getByTestId('hunk-reject').click();
    const notice = page.getByTestId('review-notice');
    await expect.poll(() => notice.getAttribute('data-kind'), { timeout: 10_000 }).toBe('conflict');
    expect(await page.getByTestId('review-conflict').innerText()).toContain('r.txt: lines 8–8 changed since');
    expect(await fileText(project, 'r.txt')).toBe(lines({ 5: 'five', 8: 'EIGHT', 12: 'twelve' }));
    expect(await bars().nth(2).getAttribute('data-state')).toBe('pending');
    await shot(page, 'review-4-conflict');
    await page.getByTestId('review-side-by-side').check();
    await expect.poll(() => page.locator('[data-testid=review-diff-editor] .editor.original').isVisible()).toBe(true);
    await shot(page, 'review-4b-side-by-side');
    await page.getByTestId('review-side-by-side').uncheck();
  });

  it('reverts to the first message (with preview), then unreverts, byte for byte', async () => {
    expect(sentSinceClick()).toEqual(['review.decide']);
    const before = await fileText(project, 'r.txt');
    const previewed = calls.length;
    await page.getByTestId('revert-message').first().click();
    const dialog = page.getByTestId('revert-dialog');
    await dialog.waitFor();
    await shot(page, 'review-5-revert-preview');
    const force = await dialog.getByTestId('revert-force').count();
    await dialog.getByTestId(force > 0 ? 'revert-force' : 'revert-confirm').click();
    await waitDisk('r.txt', base);
    await waitDisk('notes.txt', null);
    await page.getByTestId('revert-banner').waitFor();
    // The moves are the history slice's, one call each; the review panel follows the pushed session change.
    await reloadedSince(previewed);
    expect(calls.slice(previewed, calls.indexOf('history.revert', previewed) + 1)).toEqual([
      'review.revertPreview',
      'history.revert',
    ]);
    await shot(page, 'review-6-reverted');
    const unreverted = calls.length;
    await page.getByTestId('revert-unrevert').click();
    await waitDisk('r.txt', before);
    await waitDisk('notes.txt', 'notes\n');
    await reloadedSince(unreverted);
    expect(calls.slice(unreverted, calls.indexOf('history.unrevert', unreverted) + 1)).toEqual(['history.unrevert']);
    await shot(page, 'review-7-unreverted');
  });

  it('undoes decisions: the keep goes back to pending, the reject puts the agent line back', async () => {
    await page.getByTestId('review-timeline').focus();
    await page.keyboard.press('Home');
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBe(3);
    await expect.poll(() => bars().nth(1).getAttribute('data-state'), { timeout: 10_000 }).toBe('accepted');
    clicked();
    await bars().nth(1).getByTestId('hunk-undo').click();
    await expect.poll(() => bars().nth(1).getAttribute('data-state'), { timeout: 10_000 }).toBe('pending');
    expect(sentSinceClick()).toEqual(['review.undo']);
    clicked();
    await bars().nth(0).getByTestId('hunk-undo').click();
    await waitDisk('r.txt', lines({ 2: 'two', 5: 'five', 8: 'EIGHT', 12: 'twelve' }));
    await expect.poll(() => bars().nth(0).getAttribute('data-state'), { timeout: 10_000 }).toBe('pending');
    expect(await page.getByTestId('review-pending').innerText()).toBe('3 pending');
    await shot(page, 'review-8-undone');
    expect(sentSinceClick()).toEqual(['review.undo']);
    expect(errors).toEqual([]);
  });

  it('draws the command palette and quick open above the hunk bars and diff editors (no Monaco overlay on top)', async () => {
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBe(3);
    /** For every spot to probe (the bars' centres, the dialog's rows), whether the topmost element is the dialog's. */
    const onTop = async (dialog: string): Promise<boolean[]> =>
      (await page.evaluate(`(() => {
        const backdrop = document.querySelector('${dialog}')?.closest('.palette-backdrop');
        const spots = [
          ...document.querySelectorAll('[data-testid=review-panel] [data-testid=hunk-bar]'),
          ...document.querySelectorAll('${dialog} li'),
        ].map((el) => el.getBoundingClientRect());
        return spots.map((r) => {
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return Boolean(backdrop && top && backdrop.contains(top));
        });
      })()`)) as boolean[];
    for (const [keys, dialog] of [
      ['Control+Shift+P', '[data-testid=palette]'],
      ['Control+P', '[data-testid=quick-open]'],
    ] as const) {
      await page.getByTestId('composer').focus();
      await page.keyboard.press(keys);
      await page.locator(dialog).waitFor();
      await expect.poll(() => page.locator(`${dialog} li`).count()).toBeGreaterThan(0);
      const spots = await onTop(dialog);
      expect(spots.length).toBeGreaterThan(3);
      expect(spots.every(Boolean)).toBe(true);
      await shot(page, `review-9-over-${dialog.includes('palette') ? 'palette' : 'quick-open'}`);
      await page.keyboard.press('Escape');
      await page.locator(dialog).waitFor({ state: 'detached' });
    }
    expect(errors).toEqual([]);
  });

  it('F1 with the keyboard focus inside the diff editor opens the window palette, not Monaco’s own', async () => {
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // A click puts the keyboard focus in the read-only diff editor (its cursor's hunk becomes the focused one): at
    // the far right of its first line, away from the hunk bars.
    const box = await page.locator('[data-testid=review-panel] .modified-in-monaco-diff-editor').boundingBox();
    if (!box) throw new Error('no diff editor on screen');
    await page.mouse.click(box.x + box.width - 40, box.y + 8);
    expect(
      await page.evaluate("document.activeElement?.closest('[data-testid=review-panel] .monaco-editor') != null"),
    ).toBe(true);
    await page.keyboard.press('F1');
    await page.locator('[data-testid=palette]').waitFor();
    expect(await page.locator('.quick-input-widget:visible').count()).toBe(0);
    await shot(page, 'review-10-f1-from-diff-editor');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=palette]').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
