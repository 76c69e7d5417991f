/**
 * `npm run screenshots`: the README's screenshots, taken from the current build. Starts the web host over real
 * services in a temp data folder (building the renderer when stale), a scripted OpenAI-compatible model on 127.0.0.1
 * (e2e/scripted-model.ts) and Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH), opens a copy of the bundled
 * sample project, and lets the scripted model read and edit src/greet.js and answer with a code block. Then it writes,
 * at 1440 × 900 px:
 *   docs/screenshots/chat.png    — the conversation with its tool cards (light);
 *   docs/screenshots/review.png  — the review of the edit, side by side in a widened pane, with its hunk bars
 *                                  (light);
 *   docs/screenshots/editor.png  — the file in the editor tab, with the file tree (dark).
 * Nothing outside the temp folders and docs/screenshots is written. Exits non-zero (and says which step) when a step
 * does not show up within its time.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage, ROOT, sampleProject, startApp } from './harness';
import { scriptedModel } from './scripted-model';

const OUT = resolve(ROOT, 'docs/screenshots');
const WIDTH = 1440;
const HEIGHT = 900;

const NEW_GREET = [
  "const HELLO = { en: 'Hello', fr: 'Bonjour' };",
  '',
  '/** Greets one name in `lang` (English by default). */',
  "export function greet(name, lang = 'en') {",
  "  const who = name.trim() || 'world';",
  "  return `${HELLO[lang] ?? 'Hello'}, ${who}!`;",
  '}',
].join('\n');

const ANSWER = [
  '`greet()` now takes an optional language and falls back to English:\n\n',
  '```js\n',
  "greet('Ada', 'fr'); // 'Bonjour, Ada!'\n",
  "greet('  ');        // 'Hello, world!'\n",
  '```\n\n',
  'The existing tests still hold; an unknown language says "Hello".',
];

async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw new Error(`screenshots: ${what} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

async function save(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`wrote docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const model = await scriptedModel();
  const app = await startApp({
    defaultProvider: 'ollama',
    providers: [
      {
        id: 'ollama',
        kind: 'openai-compatible',
        baseURL: model.baseURL,
        model: 'qwen2.5-coder:7b',
      },
    ],
    permissions: [],
  });
  const browser = await launchBrowser();
  try {
    const { page } = await openPage(browser, app.served.host.url);
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await page.emulateMedia({ colorScheme: 'light' });
    const root = await sampleProject(app.temp, 'greeter');
    await step('opening the sample project', async () => {
      await page.getByTestId('project-path').fill(root);
      await page.getByTestId('open-project').click();
      await page.getByTestId('new-session').click();
      await page.getByTestId('chat').waitFor();
    });
    model.queue.push(
      { tool: 'read', args: { filePath: 'src/greet.js' } },
      {
        tool: 'edit',
        args: {
          filePath: 'src/greet.js',
          oldString: await readFile(join(root, 'src/greet.js'), 'utf8'),
          newString: `${NEW_GREET}\n`,
        },
      },
      { chunks: ANSWER, everyMs: 20, usage: { prompt: 2140, completion: 96 } },
    );
    await step('the turn', async () => {
      await page.getByTestId('composer').fill('Let greet() take a language (en or fr) and keep English as the default');
      await page.getByTestId('composer').press('Enter');
      await page.locator('.tool-card[data-tool=edit][data-state=completed]').waitFor({ timeout: 60_000 });
      await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
      await page.locator('.message.assistant', { hasText: 'unknown language' }).waitFor({ timeout: 30_000 });
    });
    await step('chat', async () => {
      await page.locator('[data-testid=review-panel] [data-testid=hunk-bar]').first().waitFor({ timeout: 30_000 });
      await page.locator('[data-testid=composer]').blur();
      await save(page, 'chat');
    });
    await step('review', async () => {
      // A wider review pane for the side-by-side diff: the divider's own keys (Shift+← is 80 px), as a user would.
      await page.getByTestId('divider-review').focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft');
      await page.getByTestId('review-side-by-side').check();
      await page.locator('[data-testid=review-diff-editor] .editor.original').waitFor();
      await page.locator('[data-testid=review-panel] [data-testid=hunk-bar]').first().waitFor();
      await save(page, 'review');
      await page.getByTestId('review-side-by-side').uncheck();
    });
    await step('editor', async () => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.getByTestId('show-files').click();
      await page.locator('[data-testid=file-tree] [data-path="src/greet.js"]').click();
      await page.locator('[data-testid=code-editor] .view-lines', { hasText: 'Bonjour' }).waitFor({ timeout: 30_000 });
      await save(page, 'editor');
    });
  } finally {
    await browser.close();
    await app.close();
    await model.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
