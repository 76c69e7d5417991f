/**
 * fixtures/bugs/README.md B40 in the app: a large JSON file, a one-line minified bundle and a binary file, each changed by a replayed agent
 * step (the binary one outside a step: agent tools refuse binary bytes), open in the review view without blocking the page (no long task over 200 ms while they open), as a
 * "large file" / "long lines" / "binary file changed" notice — never as a text diff — and Reject still restores
 * each file byte for byte. Screenshots: test-results/e2e/review-b40-*.png.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { shot, type AppUnderTest, openApp, type AppInBrowser } from './harness';

// Under the snapshot store's 2 MiB limit for untracked files, over the review view's 1 MB and 10,000-char-line guards.
const big = `{\n${Array.from({ length: 100_000 }, (_, i) => `"k${i}": ${i}`).join(',\n')}\n}\n`;
const bundle = `${'var a=1;'.repeat(200_000)}var z=0;`;
const logo2 = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), randomBytes(120_000)]);
const logo = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  randomBytes(100_000),
]);

async function writeRecording(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const calls = [
    { seq: 1, tool: 'read', path: 'big.json', orig_outcome: 'ok', response_index: 0 },
    {
      seq: 2,
      tool: 'edit',
      path: 'big.json',
      old_string: '"k123": 123,',
      new_string: '"k123": 124,',
      orig_outcome: 'ok',
      response_index: 0,
    },
    { seq: 3, tool: 'read', path: 'bundle.min.js', orig_outcome: 'ok', response_index: 0 },
    {
      seq: 4,
      tool: 'edit',
      path: 'bundle.min.js',
      old_string: 'var z=0;',
      new_string: 'var z=1;',
      orig_outcome: 'ok',
      response_index: 0,
    },
  ];
  await writeFile(join(dir, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  await writeFile(join(dir, 'files.jsonl'), '');
}

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];
let project: string;

async function longTasks(): Promise<number[]> {
  return page.evaluate<number[]>('window.__long.splice(0)');
}

describe('B40 — huge, long-line and binary files in the review view', () => {
  beforeAll(async () => {
    ui = await openApp();
    ({ app, page, errors } = ui);
    project = join(app.temp, 'proj');
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'big.json'), big);
    await writeFile(join(project, 'bundle.min.js'), bundle);
    await writeFile(join(project, 'logo.png'), logo);
    await writeRecording(join(app.temp, 'recording'));
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('replays the recording that changes the three files', async () => {
    await page.getByTestId('project-path').fill(project);
    await page.getByTestId('open-project').click();
    await page.getByTestId('new-session').click();
    await page.getByTestId('composer').fill(`/replay ${join(app.temp, 'recording')}`);
    await page.getByTestId('composer').press('Enter');
    await page.getByText(/Replayed turn 1 of 1/).waitFor({ timeout: 30_000 });
    await shot(page, 'review-b40-0-replayed');
    await expect.poll(() => page.locator('[data-testid=timeline-tile]').count(), { timeout: 10_000 }).toBe(2);
    // Strings, not functions: the DOM types are not in this (node) build, and the code runs in the page.
    await page.evaluate(`(() => {
      window.__long = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask', buffered: false });
    })()`);
  });

  const cases = [
    { index: 0, path: 'big.json', guard: 'too_large', shot: 'review-b40-big-json', against: 'previous' },
    { index: 1, path: 'bundle.min.js', guard: 'long_lines', shot: 'review-b40-bundle', against: 'previous' },
    // Agent tools refuse to write binary bytes, so the PNG changes outside a step (as a build script would) and is
    // reviewed as "the last point against now".
    { index: 1, path: 'logo.png', guard: 'binary', shot: 'review-b40-logo', against: 'now' },
  ];
  for (const c of cases) {
    it(`opens ${c.path} as a ${c.guard} notice without blocking the page, and Reject restores its bytes`, async () => {
      if (c.path === 'logo.png') await writeFile(join(project, 'logo.png'), logo2);
      await page.getByTestId('review-against').selectOption(c.against);
      await longTasks();
      const strip = page.getByTestId('review-timeline');
      await strip.focus();
      await page.keyboard.press('Home');
      for (let i = 0; i < c.index; i++) await page.keyboard.press('ArrowRight');
      const file = page.locator(`[data-testid=review-file][data-path="${c.path}"]`);
      await file.click();
      await expect.poll(() => file.getAttribute('aria-selected')).toBe('true');
      const guard = page.getByTestId('review-guard');
      await expect.poll(() => guard.getAttribute('data-guard'), { timeout: 5_000 }).toBe(c.guard);
      const blocked = await longTasks();
      expect(Math.max(0, ...blocked)).toBeLessThan(200);
      await shot(page, c.shot);
      const original =
        c.path === 'big.json' ? Buffer.from(big) : c.path === 'bundle.min.js' ? Buffer.from(bundle) : logo;
      expect(
        await readFile(join(project, c.path)).then(
          (b) => b.equals(original),
          () => false,
        ),
      ).toBe(false);
      await guard.getByTestId('hunk-reject').first().click();
      await expect
        .poll(
          () =>
            readFile(join(project, c.path)).then(
              (b) => b.equals(original),
              () => false,
            ),
          { timeout: 10_000 },
        )
        .toBe(true);
      if (c.against === 'previous') {
        await expect
          .poll(() => guard.locator('[data-testid=hunk-bar]').first().getAttribute('data-state'), { timeout: 10_000 })
          .toBe('rejected');
      } else {
        // Against now, a rejected change is simply no longer a difference.
        await expect.poll(() => file.count(), { timeout: 10_000 }).toBe(0);
      }
    });
  }

  it('logged no console errors', () => {
    expect(errors).toEqual([]);
  });
});
