/**
 * The first-run sample, in a real browser against the web host with no provider set up: the banner's "Replay the
 * sample session" asks one permission question (the new test file), as the banner promises, and streams the
 * recording's own words a word at a time (sampled on every DOM mutation: the text grows, always a prefix of what
 * the recording says); allowing it lands the recorded end state. Screenshots at 1440, 1024 and 800 px, light and
 * dark, of the banner and of the question.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fileText, openApp, SAMPLE, sampleEndState, shot, type AppInBrowser } from './harness';

let ui: AppInBrowser;
let page: Page;

interface Source {
  replies: { before: string; after: string }[];
  ask: { pattern: string; why: string }[];
}

/** Every distinct text of the assistant messages, and the most permission prompts shown at once. */
const OBSERVE = `(() => {
  const s = { texts: [], prompts: 0 };
  window.__first = s;
  new MutationObserver(() => {
    const md = [...document.querySelectorAll('.message.assistant .markdown')].map((m) => m.textContent).join('\\n');
    if (md && s.texts[s.texts.length - 1] !== md) s.texts.push(md);
    const prompts = document.querySelectorAll('[data-testid=permission]');
    s.prompts = Math.max(s.prompts, prompts.length);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

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

beforeAll(async () => {
  ui = await openApp();
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
});

describe('the first-run sample', () => {
  test('asks one permission question and streams its recorded text, as its banner promises', async () => {
    const source = JSON.parse(await readFile(join(SAMPLE, 'recording/source.json'), 'utf8')) as Source;
    const banner = page.locator('[data-testid=first-run]');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('asks your permission');
    await shots('first-run-banner');
    await page.evaluate(OBSERVE);
    await page.click('[data-testid=replay-sample]');

    const prompt = page.locator('[data-testid=permission]');
    await prompt.waitFor({ timeout: 60_000 });
    expect(await prompt.textContent()).toContain('test/shout.test.js');
    expect(await prompt.textContent()).toContain(source.ask[0]?.why);
    // The question is scrolled into view (the list follows its footer while the user is at the bottom).
    const inView = (): Promise<boolean> =>
      prompt.evaluate((el) => {
        const list = el.closest('[data-testid=message-list]')?.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return !!list && box.top >= list.top && box.top < list.bottom - 40;
      });
    await expect.poll(inView, { timeout: 10_000 }).toBe(true);
    // By the question, the first turn's words are on screen in full.
    const first = page.locator('.message.assistant .markdown', { hasText: 'Next: a test for the flag' });
    expect(await first.count()).toBe(1);
    await shots('first-run-permission');
    await prompt.locator('[data-testid=allow-once]').click();
    await page.getByText(/Replayed turn 2 of 2/).waitFor({ timeout: 60_000 });
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });

    const s = (await page.evaluate('window.__first')) as { texts: string[]; prompts: number };
    // One question in the whole replay, never two at once.
    expect(s.prompts).toBe(1);
    expect(ui.events.filter((e) => e.type === 'permission.asked')).toHaveLength(1);
    // Streamed: many samples, each a prefix of the last (the words grow, nothing shown twice). Compared without
    // white space and backticks: a half-streamed `code span` shows its backtick until it closes, and a coloured
    // code block joins its lines with <br> (no newline in textContent).
    const norm = (t: string): string => t.replace(/[\s`]/g, '');
    const final = s.texts[s.texts.length - 1] as string;
    const broken = s.texts.filter((t) => !norm(final).startsWith(norm(t)));
    console.log(`first-run text in the DOM: ${s.texts.length} samples / ${s.texts.length - broken.length} held`);
    expect(broken).toEqual([]);
    expect(s.texts.length).toBeGreaterThan(20);
    expect(final).toContain('Every step is in the review panel');
    // The recorded end state landed.
    const root = (await page.locator('.project-name').first().getAttribute('title')) as string;
    expect(root).toContain(ui.app.dataDir);
    const end = await sampleEndState();
    for (const [rel, text] of Object.entries(end)) expect(await fileText(root, rel)).toBe(text);
    await shots('first-run-done');
    expect(ui.errors).toEqual([]);
  });
});
