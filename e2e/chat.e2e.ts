/**
 * The whole loop in a real browser against the web host: open a temp project, replay the sample recording, see
 * streamed text and tool cards, answer permission prompts (once; reject with a reason the model reads), stop a
 * running turn with Esc Esc, /undo then /redo — and after each step compare the files on disk byte for byte.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import {
  SAMPLE,
  fileText,
  rowsDoNotOverlap,
  sampleEndState,
  sampleProject,
  shot,
  openApp,
  type AppInBrowser,
  type AppUnderTest,
} from './harness';

const ASK_EDITS = {
  defaultProvider: 'ollama',
  providers: [{ id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }],
  permissions: [{ permission: 'edit', pattern: '*', action: 'ask' }],
};
const FILES = ['src/greet.js', 'src/cli.js', 'README.md', 'test/shout.test.js', 'test/greet.test.js', 'package.json'];

let ui: AppInBrowser;
let app: AppUnderTest;
let page: Page;
let errors: string[];
let base: Record<string, string | null>;
let end: Record<string, string>;

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every tracked file of the project, as text (null when absent). */
async function disk(root: string): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const f of FILES) out[f] = await fileText(root, f);
  return out;
}

async function send(text: string): Promise<void> {
  await page.fill('[data-testid=composer]', text);
  await page.press('[data-testid=composer]', 'Enter');
}

async function idle(): Promise<void> {
  await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });
}

/** Waits for the permission prompt about `file` and returns it. */
async function promptFor(file: string): Promise<ReturnType<Page['locator']>> {
  const prompt = page.locator('[data-testid=permission]', { hasText: file });
  await prompt.waitFor({ timeout: 30_000 });
  return prompt;
}

beforeAll(async () => {
  ui = await openApp(ASK_EDITS);
  ({ app, page, errors } = ui);
  base = await disk(join(SAMPLE, 'project'));
  const e = await sampleEndState();
  end = e;
});

afterAll(async () => {
  await ui?.close();
});

describe('chat against the web host', () => {
  let root: string;

  test('replay: tool cards, a permission answered once, one rejected with a reason, files byte for byte', async () => {
    root = await sampleProject(app.temp, 'greeter');
    await page.waitForSelector('[data-testid=project-picker]');
    await shot(page, '01-project-picker');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await send('/replay sample');

    const first = await promptFor('src/greet.js');
    // The diff is computed in Monaco's worker: wait until the inserted lines are marked.
    await first.locator('[data-testid=diff-preview] .line-insert').first().waitFor({ timeout: 20_000 });
    await page.locator('[data-tool=read][data-state=completed]').first().waitFor();
    expect(await disk(root)).toEqual(base);
    await shot(page, '02-permission-prompt');
    await first.locator('[data-testid=allow-once]').click();

    const second = await promptFor('src/cli.js');
    expect(await disk(root)).toEqual({ ...base, 'src/greet.js': end['src/greet.js'] });
    await second.locator('[data-testid=reject]').click();
    await page.fill('[data-testid=reject-reason]', 'Keep the CLI untouched for now');
    await shot(page, '03-reject-with-reason');
    await page.click('[data-testid=reject-send]');

    // The rejected call's result — what the model reads — carries the reason.
    await page
      .locator('.tool-card[data-tool=edit][data-state=error]', { hasText: 'Keep the CLI untouched for now' })
      .waitFor();
    await page.getByText(/Replayed turn 1 of 2/).waitFor();
    expect(await disk(root)).toEqual({ ...base, 'src/greet.js': end['src/greet.js'] });

    await (await promptFor('test/shout.test.js')).locator('[data-testid=allow-always]').click();
    await (await promptFor('README.md')).locator('[data-testid=allow-once]').click();
    await page.getByText(/Replayed turn 2 of 2/).waitFor();
    await idle();
    const after = {
      ...base,
      'src/greet.js': end['src/greet.js'],
      'test/shout.test.js': end['test/shout.test.js'],
      'README.md': end['README.md'],
    };
    expect(await disk(root)).toEqual(after);
    expect(await page.locator('.tool-card[data-tool=edit][data-state=completed]').count()).toBeGreaterThanOrEqual(2);
    await page.locator('.tool-card[data-tool=edit][data-state=completed] .tool-head').first().click();
    await page.locator('.tool-body .patch').first().waitFor();
    await expect.poll(() => rowsDoNotOverlap(page)).toBe(true);
    await shot(page, '04-replay-done');
    expect(errors).toEqual([]);
  });

  test('/undo reverts the last turn and gives its text back; /redo lands it again', async () => {
    const after = await disk(root);
    await send('/undo');
    const composer = page.locator('[data-testid=composer]');
    await expect.poll(() => composer.inputValue()).toBe('Continue the recorded session greeter-shout (turn 2 of 2).');
    expect(await disk(root)).toEqual({ ...after, 'test/shout.test.js': null, 'README.md': base['README.md'] });
    await page.locator('.message.reverted').first().waitFor();
    // The undone notice is a line under the header, and the header keeps its title and counts on one line each.
    await page.getByTestId('reverted-note').waitFor();
    expect(await page.locator('.chat-head [data-testid=reverted-note]').count()).toBe(0);
    const header = async (): Promise<Record<string, boolean>> =>
      (await page.evaluate(`(() => {
        const h = document.querySelector('.chat-head');
        const title = h.querySelector('h2');
        const stats = document.querySelector('[data-testid=session-stats]');
        const note = document.querySelector('[data-testid=reverted-note]');
        return {
          statsWhole: stats.scrollWidth <= stats.clientWidth,
          statsTip: stats.getAttribute('title') === stats.textContent,
          titleTip: title.getAttribute('title') === title.textContent,
          headLow: h.getBoundingClientRect().height < 56,
          noteTwoLinesAtMost: note.getBoundingClientRect().height < 44,
        };
      })()`)) as Record<string, boolean>;
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 820 });
      await expect.poll(() => page.locator('.shell').getAttribute('data-layout')).toBe('wide');
      // Polled: the panes take their widths for the new window size in the frames after the resize.
      await expect.poll(header, { message: `header at ${width} px` }).toEqual({
        statsWhole: true,
        statsTip: true,
        titleTip: true,
        headLow: true,
        noteTwoLinesAtMost: true,
      });
      await shot(page, `05-after-undo-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 820 });
    await shot(page, '05-after-undo');
    await send('/redo');
    await expect.poll(() => composer.inputValue()).toBe('');
    expect(await disk(root)).toEqual(after);
    await shot(page, '06-after-redo');
    expect(errors).toEqual([]);
  });

  test('sessions: rename, export to a file, import it back, delete', async () => {
    const item = page.locator('[data-testid=session-item]').first();
    await item.hover();
    await item.getByLabel('Rename').click();
    await page.getByLabel('Session title').fill('Shout flag');
    await page.getByLabel('Session title').press('Enter');
    await page.locator('[data-testid=session-item]', { hasText: 'Shout flag' }).waitFor();

    const download = page.waitForEvent('download');
    await page.locator('[data-testid=session-item]', { hasText: 'Shout flag' }).getByLabel('Export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('shout-flag.landfall.json');
    const saved = join(app.temp, 'export.json');
    await file.saveAs(saved);
    const exported = JSON.parse(await readFile(saved, 'utf8')) as {
      format: string;
      session: { title: string };
      messages: unknown[];
    };
    expect(exported.format).toBe('landfall.session');
    expect(exported.session.title).toBe('Shout flag');

    await page.setInputFiles('.sessions-head input[type=file]', saved);
    await expect.poll(() => page.locator('[data-testid=session-item]', { hasText: 'Shout flag' }).count()).toBe(2);
    await page.locator('.tool-card[data-tool=write]').first().waitFor();
    await shot(page, '06b-sessions');

    const copy = page.locator('[data-testid=session-item].active');
    await copy.getByLabel('Delete').click();
    await copy.getByLabel('Delete').click();
    await expect.poll(() => page.locator('[data-testid=session-item]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  test('Esc twice stops a running turn; nothing is written', async () => {
    const other = await sampleProject(app.temp, 'greeter-stop');
    await page.click('.brand');
    await page.fill('[data-testid=project-path]', other);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await send('/replay sample');
    await promptFor('src/greet.js');
    await page.locator('[data-testid=busy]').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await idle();
    await page.locator('[data-testid=permission]').waitFor({ state: 'detached' });
    expect(await disk(other)).toEqual(base);
    await shot(page, '07-stopped');
    expect(errors).toEqual([]);
  });

  test("a write that breaks the syntax shows the language server's diagnostics on its tool card", async () => {
    const recording = join(app.temp, 'broken-recording');
    await mkdir(recording, { recursive: true });
    const broken = 'export const greeting = ;\n';
    await writeFile(join(recording, 'files.jsonl'), '');
    await writeFile(
      join(recording, 'calls.jsonl'),
      `${JSON.stringify({ seq: 1, tool: 'write', path: 'src/broken.js', content: broken, orig_outcome: 'ok' })}\n`,
    );
    await page.click('[data-testid=new-session]');
    await send(`/replay ${recording}`);
    await (await promptFor('src/broken.js')).locator('[data-testid=allow-once]').click();
    const card = page.locator('.tool-card[data-tool=write][data-state=completed]');
    await card.waitFor({ timeout: 60_000 });
    await idle();
    expect(await fileText(join(app.temp, 'greeter-stop'), 'src/broken.js')).toBe(broken);
    // Under load the first diagnostics can come after the tool's wait timed out: the card updates when they
    // arrive (a late part.updated), so the test waits for that update, not for a fixed time.
    await card.locator('.diag-count').waitFor({ timeout: 90_000 });
    expect(await card.locator('.diag-count').textContent()).toMatch(/^\d+ errors?$/);
    await card.locator('.tool-head').click();
    await card.locator('.diagnostics li.error').first().waitFor();
    expect(await card.locator('.diagnostics li.error').first().textContent()).toMatch(/^src\/broken\.js:1:\d+ /);
    await shot(page, '07b-diagnostics');
    expect(errors).toEqual([]);
  });

  test('the command palette and the settings screen with a failing connection test', async () => {
    await page.keyboard.press('Control+Shift+P');
    await page.locator('[data-testid=palette]').waitFor();
    await shot(page, '08-command-palette');
    await page.keyboard.press('Escape');
    await page.click('[data-testid=open-settings]');
    await page.selectOption('[data-testid=add-provider]', 'custom');
    const added = page.locator('[data-testid=provider-card]').last();
    await added.locator('[data-testid=base-url]').fill(`http://127.0.0.1:${await closedPort()}/v1`);
    await added.locator('[data-testid=model]').fill('tiny');
    await added.locator('[data-testid=test-connection]').click();
    const result = added.locator('[data-testid=test-result]');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getAttribute('class')).toBe('warning');
    expect(await result.textContent()).toMatch(/connect|refused/i);
    await shot(page, '09-settings');
    expect(errors).toEqual([]);
  });
});

test('the sample project file bytes match the recording base', async () => {
  const files = (await readFile(join(SAMPLE, 'recording/files.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { path: string; content: string });
  for (const f of files) expect(await fileText(join(SAMPLE, 'project'), f.path)).toBe(f.content);
});
