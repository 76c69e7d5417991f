/**
 * What is happening, in a real browser against the web host with a scripted OpenAI-compatible model (every
 * request body recorded): streamed text sampled on every DOM mutation grows monotonically (never a chunk twice);
 * the live line says "thinking" with elapsed time and the session list shows the session running; a turn reports
 * the provider's tokens and its time; a 429 is "Rate limited" in plain words in its own session's transcript with
 * the provider's raw text behind "details"; a stopped turn leaves "Stopped by you" (kept over a reload); a write
 * shows "written, waiting for diagnostics" on its card, and the live line names the language server, until the
 * diagnostics come. Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { fileText, openApp, openProjectWith, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

const TEXT = "I'll start by reading the greeter, then I will add a shout flag and a test that covers it well.";
const CHUNKS = TEXT.match(/[\s\S]{1,12}/g) as string[];

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;
let root: string;

interface Samples {
  text: string[];
  activity: string[];
  written: number;
  running: number;
}

/**
 * Records, on every DOM mutation (not on a timer), the text of the last assistant message's markdown, the live
 * line's activity kind, and whether a "written, waiting" card or a running session dot is in the DOM.
 */
const OBSERVE = `(() => {
  const s = { text: [], activity: [], written: 0, running: 0 };
  window.__samples = s;
  const read = () => {
    const rows = document.querySelectorAll('.message.assistant');
    const last = rows[rows.length - 1];
    const md = last ? [...last.querySelectorAll('.markdown')].map((m) => m.textContent).join('') : '';
    if (md && s.text[s.text.length - 1] !== md) s.text.push(md);
    const a = document.querySelector('[data-testid=busy]');
    const kind = a ? a.getAttribute('data-activity') + ':' + a.querySelector('.activity-label').textContent : '';
    if (kind && s.activity[s.activity.length - 1] !== kind) s.activity.push(kind);
    if (document.querySelector('[data-testid=written-waiting]')) s.written++;
    if (document.querySelector('[data-testid=session-running]')) s.running++;
  };
  new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

async function samples(): Promise<Samples> {
  return (await page.evaluate('window.__samples')) as Samples;
}

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

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [{ permission: 'edit', pattern: '*', action: 'allow' }],
  });
  page = ui.page;
  root = await openProjectWith(ui, 'live-project', {
    'src/ok.ts': 'export const ok: number = 1;\n',
    'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  });
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('what is happening', () => {
  test('streamed text grows monotonically: 12 characters every 300 ms, sampled on every DOM mutation', async () => {
    await page.click('[data-testid=new-session]');
    await page.locator('[data-testid=chat]').waitFor();
    await page.evaluate(OBSERVE);
    model.queue.push({ chunks: CHUNKS, everyMs: 300, usage: { prompt: 1234, completion: 56 } });
    await send('Add a shout flag');
    await page.locator('[data-testid=busy][data-activity=thinking]').waitFor();
    await page.locator('.message.assistant .markdown').first().waitFor();
    await shot(page, 'live-streaming');
    await idle();
    const s = await samples();
    const broken = s.text.filter((t) => !TEXT.startsWith(t));
    console.log(`streamed text in the DOM: ${s.text.length} samples / ${s.text.length - broken.length} held`);
    expect(broken).toEqual([]);
    expect(s.text[s.text.length - 1]).toBe(TEXT);
    // The DOM grew in steps (the provider's pace), not in one paint at the end.
    expect(s.text.length).toBeGreaterThanOrEqual(CHUNKS.length / 2);
    expect(s.activity.some((a) => a.startsWith('thinking:thinking'))).toBe(true);
    expect(s.running).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=session-running]').count()).toBe(0);
    // What the model was sent: the user's words.
    expect(JSON.stringify(model.bodies[model.bodies.length - 1]?.messages)).toContain('Add a shout flag');
    await expect
      .poll(() => page.locator('[data-testid=turn-stats]').textContent())
      .toMatch(/^1\.2k in · 56 out · \d+\.\d s$/);
    expect(await page.locator('[data-testid=session-stats]').textContent()).toMatch(/^1\.2k in · 56 out · /);
    await shots('live-stream-done');
    expect(ui.errors).toEqual([]);
  });

  test('a 429 is "Rate limited" in its own session, the raw text behind "details"', async () => {
    const raw = '{"error":{"message":"Rate limit reached for requests per minute (RPM): limit 3, used 3"}}';
    for (let i = 0; i < 3; i++) model.queue.push({ status: 429, body: raw, headers: { 'retry-after': '0' } });
    await page.click('[data-testid=new-session]');
    await send('Try again');
    const error = page.locator('[data-testid=turn-error]');
    await error.waitFor({ timeout: 30_000 });
    await idle();
    expect(await error.locator('.turn-error-message').textContent()).toMatch(/^Rate limited: /);
    expect(await error.textContent()).not.toMatch(/check the server|server is running/i);
    expect(await error.locator('.turn-error-details pre').isVisible()).toBe(false);
    await error.locator('summary').click();
    expect(await error.locator('.turn-error-details pre').textContent()).toContain('Rate limit reached for requests');
    // No banner over the window: the error belongs to this session.
    expect(await page.locator('.error-banner').count()).toBe(0);
    await shots('live-rate-limited');
    // Another session does not show it; coming back does (it is stored with the step).
    await page.locator('[data-testid=session-item]', { hasText: 'Add a shout flag' }).locator('.session-title').click();
    await page.locator('.message.assistant .markdown', { hasText: 'shout flag' }).waitFor();
    expect(await page.locator('[data-testid=turn-error]').count()).toBe(0);
    await page.locator('[data-testid=session-item]', { hasText: 'Try again' }).locator('.session-title').click();
    await page.locator('[data-testid=turn-error]').waitFor();
    expect(ui.errors).toEqual([]);
  });

  test('a stopped turn leaves "Stopped by you", still there after a reload', async () => {
    model.queue.push({ chunks: ['Working on the change'], hang: true });
    await page.click('[data-testid=new-session]');
    await send('Start something long');
    await page.locator('.message.assistant .markdown', { hasText: 'Working on the change' }).waitFor();
    await page.click('[data-testid=stop]');
    await idle();
    await page.locator('[data-testid=stopped]').waitFor();
    expect(await page.locator('[data-testid=stopped]').textContent()).toBe('Stopped by you');
    await shots('live-stopped');
    await page.reload();
    // The reload returns to the same project and session.
    await page.locator('[data-testid=session-item].active', { hasText: 'Start something long' }).waitFor();
    await page.locator('[data-testid=stopped]').waitFor();
    await page.evaluate(OBSERVE);
    expect(ui.errors).toEqual([]);
  });

  test('the slash menu lists commands; an unknown /word is refused and never sent to the model', async () => {
    await page.fill('[data-testid=composer]', '');
    await page.locator('[data-testid=composer]').click();
    await page.keyboard.type('/re');
    const menu = page.locator('[data-testid=slash-menu] li');
    await menu.first().waitFor();
    expect(await menu.allTextContents()).toEqual([
      '/redo — Bring the last undone turn back',
      '/replay <folder | sample> — Play a recorded session into this project',
    ]);
    await page.fill('[data-testid=composer]', '/frobnicate the code');
    const before = model.bodies.length;
    await page.press('[data-testid=composer]', 'Enter');
    await page.locator('.error-banner', { hasText: '/frobnicate is not a command' }).waitFor();
    expect(await page.locator('[data-testid=composer]').inputValue()).toBe('/frobnicate the code');
    expect(model.bodies.length).toBe(before);
    await shot(page, 'live-slash-unknown');
    await page.locator('.error-banner button').click();
    await page.fill('[data-testid=composer]', '');
    expect(ui.errors).toEqual([]);
  });

  test('a write shows "written, waiting for diagnostics" until the language server answers', async () => {
    const bad = 'export const count: number = "three";\n';
    model.queue.push({ tool: 'write', args: { filePath: 'src/bad.ts', content: bad } }, { chunks: ['Wrote it.'] });
    await page.click('[data-testid=new-session]');
    await page.evaluate(OBSERVE);
    await send('Write src/bad.ts');
    const card = page.locator('.tool-card[data-tool=write]');
    await card.locator('.diag-count').waitFor({ timeout: 90_000 });
    await idle();
    expect(await fileText(root, 'src/bad.ts')).toBe(bad);
    const s = await samples();
    expect(s.written).toBeGreaterThan(0);
    expect(s.activity).toContain('diagnostics:waiting for typescript diagnostics');
    expect(await card.locator('.diag-count').textContent()).toBe('1 error');
    await shots('live-diagnostics');
    expect(ui.errors).toEqual([]);
  });
});
