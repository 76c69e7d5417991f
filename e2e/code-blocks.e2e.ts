/**
 * Code blocks in the chat are syntax-coloured (Monaco's colorizer), in a real browser against the web host with a
 * scripted OpenAI-compatible model: a ```ts and a ```bash block get token spans with Monaco's colour classes
 * whose computed colours differ by token kind and follow the OS scheme (light / dark); a block whose fence names
 * no known language and inline code stay plain text; the code's text is kept exactly. Screenshots at 1440, 1024
 * and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, openProjectWith, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

const TS = 'export function shout(name: string): string {\n  return `HELLO ${name}`.toUpperCase(); // loud\n}';
const SH = 'npm test -- --run greeter # only the greeter';
const REPLY = [
  'Here is the change, with `shout` inline:',
  '',
  '```ts',
  TS,
  '```',
  '',
  'Run it:',
  '',
  '```bash',
  SH,
  '```',
  '',
  '```nosuchlanguage',
  'left as it is',
  '```',
].join('\n');

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

/** Computed colour of every token span of the first coloured block, by its text. */
async function tokenColours(): Promise<Record<string, string>> {
  return (await page.evaluate(`(() => {
    const out = {};
    const block = document.querySelector('[data-testid=code-colorized]');
    for (const span of block ? [...block.querySelectorAll('span[class^=mtk]')] : [])
      out[(span.textContent || '').replace(/\\u00a0/g, ' ').trim()] = getComputedStyle(span).color;
    return out;
  })()`)) as Record<string, string>;
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [],
  });
  page = ui.page;
  await openProjectWith(ui, 'code-project');
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('code blocks in the chat', () => {
  test('fenced code is coloured by token kind, light and dark; unknown fences and inline code stay plain', async () => {
    model.queue.push({ chunks: REPLY.match(/[\s\S]{1,16}/g) as string[], everyMs: 20 });
    await page.click('[data-testid=new-session]');
    await page.fill('[data-testid=composer]', 'Show me the shout function');
    await page.press('[data-testid=composer]', 'Enter');
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
    const blocks = page.locator('[data-testid=code-colorized]');
    await blocks.nth(1).waitFor({ timeout: 30_000 });
    expect(await blocks.count()).toBe(2);
    await page.waitForSelector('[data-testid=code-colorized][data-stale]', { state: 'detached' });

    // Token spans with Monaco's colour classes; the code's text is exactly what the model wrote.
    const classes = await blocks
      .first()
      .evaluate((b) => [...b.querySelectorAll('span[class]')].map((s) => s.className));
    expect(classes.every((c) => /^mtk\d+( mtk[ibus])*$/.test(c))).toBe(true);
    expect(new Set(classes).size).toBeGreaterThanOrEqual(3);
    expect(await blocks.first().locator('br').count()).toBe(2);
    expect((await blocks.first().innerText()).replace(/\u00a0/g, ' ')).toBe(TS);
    expect((await blocks.nth(1).innerText()).replace(/\u00a0/g, ' ')).toBe(SH);

    // Keyword, type, string and comment get colours of their own.
    const light = await tokenColours();
    expect(light['export']).toBeDefined();
    expect(light['export']).not.toBe(light['shout']);
    expect(light['// loud']).toBeDefined();
    expect(light['// loud']).not.toBe(light['export']);
    expect(new Set(Object.values(light)).size).toBeGreaterThanOrEqual(3);

    // The unknown fence and the inline code are plain text.
    const plain = page.locator('.markdown pre code', { hasText: 'left as it is' });
    expect(await plain.getAttribute('data-testid')).toBeNull();
    expect(await plain.locator('span').count()).toBe(0);
    expect(await page.locator('.markdown p code', { hasText: 'shout' }).locator('span').count()).toBe(0);
    await shotsBoth('chat-code-blocks');

    // Dark: coloured again with the dark theme's colours.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await tokenColours())['export']).not.toBe(light['export']);
    const dark = await tokenColours();
    expect(dark['// loud']).not.toBe(light['// loud']);
    expect(new Set(Object.values(dark)).size).toBeGreaterThanOrEqual(3);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => (await tokenColours())['export']).toBe(light['export']);
    expect(ui.errors).toEqual([]);
  });
});

async function shotsBoth(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      await page.waitForSelector('[data-testid=code-colorized][data-stale]', { state: 'detached' });
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 820 });
}
