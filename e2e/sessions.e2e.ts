/**
 * The sessions column, in a real browser against the web host with a scripted OpenAI-compatible model: search
 * by title and by message text (sessions.search) shows the matching sessions with the query marked in each
 * snippet, an empty state for no match, and opens a found session; a running dot on a session that runs a turn
 * survives a reload — also when another session is the open one (sessions.running). Screenshots at 1440, 1024 and
 * 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

async function send(text: string): Promise<void> {
  await page.fill('[data-testid=composer]', text);
  await page.press('[data-testid=composer]', 'Enter');
}

async function idle(): Promise<void> {
  await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
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
  await page.setViewportSize({ width: 1280, height: 820 });
}

/** Starts a session and runs one turn whose answer is `reply`. */
async function turn(prompt: string, reply: string): Promise<void> {
  model.queue.push({ chunks: [reply] });
  await page.click('[data-testid=new-session]');
  await page.locator('[data-testid=chat]').waitFor();
  await send(prompt);
  await page.locator('.message.assistant .markdown', { hasText: reply }).waitFor();
  await idle();
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [],
  });
  page = ui.page;
  const root = join(ui.app.temp, 'sessions-project');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'README.md'), '# greeter\n');
  await page.waitForSelector('[data-testid=project-picker]');
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
  await turn('Add a shout flag to the greeter', 'The shout flag prints the greeting in capitals.');
  await turn('Tidy the readme', 'I rewrote the opening paragraph of the README.');
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('the sessions column', () => {
  test('search finds sessions by message text and by title, the query marked; no match says so', async () => {
    await page.fill('[data-testid=session-search]', 'capitals');
    const hits = page.locator('[data-testid=search-hit]');
    await expect.poll(() => hits.count()).toBe(1);
    expect(await hits.locator('.search-hit-title').textContent()).toBe('Add a shout flag to the greeter');
    expect(await hits.locator('[data-testid=search-mark]').allTextContents()).toEqual(['capitals']);
    expect(await hits.locator('.search-hit-snippet').textContent()).toContain('greeting in capitals');
    await shots('sessions-search-text');

    // A title match is marked in the title; case does not matter.
    await page.fill('[data-testid=session-search]', 'TIDY');
    await expect.poll(() => hits.locator('.search-hit-title').allTextContents()).toEqual(['Tidy the readme']);
    expect(await hits.locator('.search-hit-title [data-testid=search-mark]').textContent()).toBe('Tidy');

    // Both sessions hold "the"; a word in both user messages finds both.
    await page.fill('[data-testid=session-search]', 'the');
    await expect.poll(() => hits.count()).toBe(2);

    await page.fill('[data-testid=session-search]', 'no such words here');
    await page.locator('[data-testid=search-empty]').waitFor();
    expect(await page.locator('[data-testid=search-empty]').textContent()).toBe(
      'No session matches “no such words here”.',
    );
    expect(await hits.count()).toBe(0);
    await shots('sessions-search-empty');

    // Opening a found message shows its session with that message marked; Esc clears the box and the plain
    // list returns.
    await page.fill('[data-testid=session-search]', 'capitals');
    await hits.first().locator('[data-testid=search-snippet]').click();
    const focused = page.locator('.row[data-focused]');
    await focused.waitFor();
    expect(await focused.count()).toBe(1);
    expect(await focused.textContent()).toContain('greeting in capitals');
    await page.locator('[data-testid=session-item].active, [data-testid=search-hit].active').first().waitFor();
    await shots('sessions-search-opened');
    await page.press('[data-testid=session-search]', 'Escape');
    await expect.poll(() => page.locator('[data-testid=session-item]').count()).toBe(2);
    expect(ui.errors).toEqual([]);
  });

  test('a running dot survives a reload, on a session that is not the open one', async () => {
    // A slow scripted turn: a chunk every 300 ms, then the stream stays open until the turn is stopped.
    const chunks = Array.from({ length: 20 }, (_, i) => `part ${i} `);
    model.queue.push({ chunks, everyMs: 300, hang: true });
    await page.click('[data-testid=new-session]');
    await send('Run something slow');
    const slow = page.locator('[data-testid=session-item]', { hasText: 'Run something slow' });
    await slow.locator('[data-testid=session-running]').waitFor();
    // Open another session, so the running one is only in the list.
    await page.locator('[data-testid=session-item]', { hasText: 'Tidy the readme' }).locator('.session-title').click();
    await page.locator('[data-testid=session-item].active', { hasText: 'Tidy the readme' }).waitFor();
    await page.reload();
    await page.locator('[data-testid=session-item].active', { hasText: 'Tidy the readme' }).waitFor();
    await slow.locator('[data-testid=session-running]').waitFor();
    expect(await page.locator('[data-testid=session-running]').count()).toBe(1);
    await shots('sessions-running-after-reload');
    // The dot goes when the turn ends (stopped by the user).
    await slow.locator('.session-title').click();
    await page.locator('[data-testid=stop]').click();
    await slow.locator('[data-testid=session-running]').waitFor({ state: 'detached' });
    expect(ui.errors).toEqual([]);
  });
});
