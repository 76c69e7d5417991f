/**
 * Review marks what a revert took off disk (issue 17 §5), end to end: the web host over real services, Debian's
 * Chromium, a recording replayed on a temp project — turn 1 edits r.txt line 2, turn 2 edits line 8. The user keeps
 * turn 2's hunk, then reverts to before turn 2: its hunk shows "Reverted" (no Keep / Reject / Undo), its timeline
 * tile is marked, the pending count leaves it out, its keys send nothing, and main refuses a decision or undo sent
 * anyway (`reverted`) with the disk unchanged. Unrevert brings it back as before: Kept, with Undo. Screenshots of the reverted review at 1440,
 * 1024 and 800 px, light and dark: test-results/e2e/review-reverted-*.png.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fileText, openApp, shot, type AppInBrowser } from './harness';

const lines = (edits: Record<number, string> = {}): string =>
  Array.from({ length: 12 }, (_, i) => `${edits[i + 1] ?? i + 1}\n`).join('');

async function writeRecording(dir: string): Promise<void> {
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
    {
      seq: 3,
      tool: 'edit',
      path: 'r.txt',
      old_string: '8\n',
      new_string: 'eight\n',
      orig_outcome: 'ok',
      response_index: 1,
    },
  ];
  await writeFile(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  await writeFile(
    join(dir, 'files.jsonl'),
    JSON.stringify({ path: 'r.txt', encoding: 'utf8', content: lines(), mode: '100644' }) + '\n',
  );
  await writeFile(
    join(dir, 'source.json'),
    JSON.stringify({ id: 'review-reverted-e2e', description: 'Written for Landfall: review of a reverted turn.' }),
  );
}

let ui: AppInBrowser;
let page: Page;
let project: string;

const bars = (): ReturnType<Page['locator']> => page.locator('[data-testid=review-panel] [data-testid=hunk-bar]');
const tiles = (): ReturnType<Page['locator']> => page.locator('[data-testid=timeline-tile]');
async function waitDisk(want: string): Promise<void> {
  await expect.poll(() => fileText(project, 'r.txt'), { timeout: 15_000 }).toBe(want);
}

/** The reviewed point: the timeline's last step (turn 2's), against the previous point. */
async function selectLast(): Promise<void> {
  const strip = page.getByTestId('review-timeline');
  await strip.focus();
  await page.keyboard.press('End');
  await expect.poll(() => strip.getAttribute('aria-valuenow')).toBe('1');
}

describe('review of a reverted turn', () => {
  beforeAll(async () => {
    ui = await openApp();
    page = ui.page;
    await page.setViewportSize({ width: 1440, height: 820 });
    project = join(ui.app.temp, 'proj');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'r.txt'), lines());
    await writeRecording(join(ui.app.temp, 'recording'));
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('keeps turn 2’s hunk, reverts to before turn 2: the hunk shows Reverted, no Keep / Reject / Undo', async () => {
    await page.getByTestId('project-path').fill(project);
    await page.getByTestId('open-project').click();
    await page.getByTestId('new-session').click();
    const composer = page.getByTestId('composer');
    await composer.fill(`/replay ${join(ui.app.temp, 'recording')}`);
    await composer.press('Enter');
    await waitDisk(lines({ 2: 'two', 8: 'eight' }));
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
    await expect.poll(() => tiles().count(), { timeout: 15_000 }).toBe(2);
    await selectLast();
    await expect.poll(() => bars().count(), { timeout: 10_000 }).toBe(1);
    await bars().first().getByTestId('hunk-keep').click();
    await expect.poll(() => bars().first().getAttribute('data-state'), { timeout: 10_000 }).toBe('accepted');

    await expect.poll(() => page.getByTestId('revert-message').count(), { timeout: 10_000 }).toBe(2);
    await page.getByTestId('revert-message').nth(1).click();
    const dialog = page.getByTestId('revert-dialog');
    await dialog.waitFor();
    await dialog.getByTestId('revert-confirm').click();
    await waitDisk(lines({ 2: 'two' }));
    await page.getByTestId('revert-banner').waitFor();

    const bar = bars().first();
    await expect.poll(() => bar.getAttribute('data-reverted'), { timeout: 15_000 }).toBe('unrevert_brings_back');
    expect(await bar.getAttribute('data-state')).toBe('accepted');
    expect(await bar.getByTestId('hunk-reverted').innerText()).toBe('Reverted');
    expect(await bar.innerText()).toContain('unrevert brings it back');
    expect(await bar.locator('button').count()).toBe(0);
    // Turn 2's step and the keep made on it are both off disk; turn 1's step is not.
    expect(await tiles().evaluateAll((els) => els.map((e) => e.getAttribute('data-reverted')))).toEqual([
      null,
      'true',
      'true',
    ]);
    expect(await page.getByTestId('review-pending').innerText()).toBe('0 pending');
  });

  it('the window offers no decision on it (keys send nothing); main refuses one sent anyway with `reverted`', async () => {
    const h = ui.app.served.services.handlers;
    const projects = await h['projects.list']({});
    if (!projects.ok) throw new Error(projects.error.message);
    const sessions = await h['sessions.list']({ projectId: projects.value[0]!.id });
    if (!sessions.ok) throw new Error(sessions.error.message);
    const sessionId = sessions.value[0]!.id;
    const sent = ui.calls.length;
    await page.getByTestId('review-timeline').focus();
    for (const key of ['Alt+y', 'Alt+n', 'Control+y']) await page.keyboard.press(key);
    // Every key above ran (or was passed over) before this round trip came back.
    await expect.poll(() => page.getByTestId('review-timeline').getAttribute('aria-valuenow')).toBe('1');
    expect(ui.calls.slice(sent).filter((c) => c.startsWith('review.decide'))).toEqual([]);

    const timeline = await h['review.timeline']({ sessionId });
    if (!timeline.ok) throw new Error(timeline.error.message);
    const step = timeline.value.find((e) => e.kind === 'step' && e.reverted)!;
    const keep = timeline.value.find((e) => e.kind === 'decision')!;
    const target = { kind: 'point' as const, entryId: step.id, against: 'previous' as const };
    const hunkId = (await bars().first().getAttribute('data-hunk-id'))!;
    const codes: string[] = [];
    for (const action of ['accept', 'reject'] as const) {
      const r = await h['review.decide']({ sessionId, target, action, hunkIds: [hunkId] });
      codes.push(r.ok ? 'ok' : r.error.code);
    }
    const undo = await h['review.undo']({ sessionId, decisionId: keep.id });
    codes.push(undo.ok ? 'ok' : undo.error.code);
    if (!undo.ok)
      expect(undo.error.hint).toBe('Unrevert the session to bring the change back, then keep or reject it.');
    // Accept and reject name a hunk that is decided already (kept before the revert): `invalid_input` comes first;
    // the undo of that keep is the one a reverted hunk refuses.
    expect(codes).toEqual(['invalid_input', 'invalid_input', 'reverted']);
    expect(await fileText(project, 'r.txt')).toBe(lines({ 2: 'two' }));
  });

  it('screenshots of the reverted review at 1440, 1024 and 800 px, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const w of [1440, 1024, 800]) {
        await page.setViewportSize({ width: w, height: 820 });
        await expect.poll(() => page.locator('.shell').getAttribute('data-layout')).toBe(w >= 1000 ? 'wide' : 'tabs');
        if (w < 1000) await page.click('[data-testid=tab-review]');
        await page.locator('[data-testid=review-panel] [data-testid=hunk-bar]').first().waitFor();
        await shot(page, `review-reverted-${w}-${scheme}`);
        if (w < 1000) await page.click('[data-testid=tab-chat]');
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 820 });
  });

  it('unrevert brings the hunk back as before: Kept, with Undo; the disk holds the change again', async () => {
    await page.getByTestId('revert-unrevert').click();
    await waitDisk(lines({ 2: 'two', 8: 'eight' }));
    const bar = bars().first();
    await expect.poll(() => bar.getAttribute('data-reverted'), { timeout: 15_000 }).toBe(null);
    expect(await bar.getAttribute('data-state')).toBe('accepted');
    expect(await bar.getByTestId('hunk-undo').count()).toBe(1);
    expect(await tiles().evaluateAll((els) => els.map((e) => e.getAttribute('data-reverted')))).toEqual([
      null,
      null,
      null,
    ]);
    await shot(page, 'review-reverted-unreverted');
    await bar.getByTestId('hunk-undo').click();
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 10_000 }).toBe('pending');
    expect(ui.errors).toEqual([]);
  });
});
