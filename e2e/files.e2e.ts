/**
 * Files in a real browser against the web host: the tree follows the ignore rules; a file opens in the editor,
 * an edit saved with Ctrl+S lands byte for byte with its CRLF line endings kept; Ctrl+P finds a file by name; a
 * tool card's link opens the file it changed; an agent change to a file with unsaved edits opens the merge view
 * and nothing is overwritten until the user chooses; a save while the agent holds the file (its permission
 * question open) waits, and then shows both sides instead of overwriting. Screenshots at 1440, 1024 and 800 px,
 * light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fileText, openApp, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;
let root: string;

async function send(text: string): Promise<void> {
  await page.fill('[data-testid=composer]', text);
  await page.press('[data-testid=composer]', 'Enter');
}

async function idle(): Promise<void> {
  await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
}

/** The editor's visible text (Monaco renders spaces as no-break spaces). */
async function editorText(): Promise<string> {
  return (await page.locator('[data-testid=code-editor] .view-lines').innerText()).replace(/\u00a0/g, ' ');
}

/** Types `text` at the end of the open file. */
async function typeAtEnd(text: string): Promise<void> {
  await page.locator('[data-testid=code-editor] .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 820 });
      if (width < 1000) await page.click('[data-testid=tab-review]');
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 820 });
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [
      { permission: 'edit', pattern: 'src/held.js', action: 'ask' },
      { permission: 'edit', pattern: 'src/new.js', action: 'ask' },
    ],
  });
  page = ui.page;
  root = join(ui.app.temp, 'files-project');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(root, 'dist'), { recursive: true });
  await writeFile(join(root, '.gitignore'), 'dist/\n');
  await writeFile(join(root, 'dist/bundle.js'), 'built\n');
  await writeFile(join(root, 'src/app.js'), 'export const answer = 41;\r\nexport const name = "app";\r\n');
  await writeFile(join(root, 'src/config.json'), '{ "port": 8080 }\n');
  await writeFile(join(root, 'src/held.js'), 'export const held = 1;\n');
  await page.setViewportSize({ width: 1440, height: 820 });
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
  await page.click('[data-testid=new-session]');
  await page.locator('[data-testid=chat]').waitFor();
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('files', () => {
  test('the tree follows the ignore rules; an edit saved with Ctrl+S keeps CRLF, byte for byte', async () => {
    await page.click('[data-testid=show-files]');
    const tree = page.locator('[data-testid=file-tree]');
    await tree.locator('[data-path="src/app.js"]').waitFor();
    expect(await tree.locator('[data-path="dist/bundle.js"]').count()).toBe(0);
    await tree.locator('[data-path="src/app.js"]').click();
    await expect.poll(editorText).toContain('export const answer = 41;');
    expect(await page.locator('.editor-meta').textContent()).toContain('CRLF');
    await typeAtEnd('// edited by hand');
    await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('unsaved');
    await page.keyboard.press('Control+S');
    await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('saved');
    expect(await fileText(root, 'src/app.js')).toBe(
      'export const answer = 41;\r\nexport const name = "app";\r\n// edited by hand',
    );
    await shots('files-editor');
    expect(ui.errors).toEqual([]);
  });

  test('Ctrl+P finds a file by name and opens it', async () => {
    await page.locator('[data-testid=composer]').click();
    await page.keyboard.press('Control+P');
    await page.locator('[data-testid=quick-open]').waitFor();
    await page.keyboard.type('cfgjs');
    expect(await page.locator('[data-testid=quick-open] li').allTextContents()).toEqual(['src/config.json']);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid=editor-path]').textContent()).toBe('src/config.json');
    await expect.poll(editorText).toContain('"port": 8080');
    expect(ui.errors).toEqual([]);
  });

  test('an agent change under unsaved edits opens the merge view; nothing is overwritten until the user picks', async () => {
    await page.locator('[data-testid=file-tree] [data-path="src/app.js"]').click();
    await expect.poll(editorText).toContain('edited by hand');
    await typeAtEnd(' and more');
    await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('unsaved');
    model.queue.push(
      { tool: 'read', args: { filePath: 'src/app.js' } },
      { tool: 'edit', args: { filePath: 'src/app.js', oldString: 'answer = 41', newString: 'answer = 42' } },
      { chunks: ['Changed the answer.'] },
    );
    await send('Make the answer 42');
    await page.locator('[data-testid=merge-view]').waitFor({ timeout: 60_000 });
    await idle();
    const agents = 'export const answer = 42;\r\nexport const name = "app";\r\n// edited by hand';
    expect(await fileText(root, 'src/app.js')).toBe(agents);
    await shots('files-merge');
    // The tool card links to the file it changed.
    await page.locator('.tool-card[data-tool=edit] .tool-head').click();
    expect(await page.locator('.tool-card[data-tool=edit] .file-link', { hasText: 'Open src/app.js' }).count()).toBe(1);
    await page.click('[data-testid=keep-mine]');
    await page.locator('[data-testid=merge-view]').waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('saved');
    expect(await fileText(root, 'src/app.js')).toBe(
      'export const answer = 41;\r\nexport const name = "app";\r\n// edited by hand and more',
    );
    expect(ui.errors).toEqual([]);
  });

  test('a save while the agent holds the file waits for it, then shows both sides', async () => {
    await page.locator('[data-testid=file-tree] [data-path="src/held.js"]').click();
    await expect.poll(editorText).toContain('held = 1');
    await typeAtEnd('// mine');
    model.queue.push(
      { tool: 'read', args: { filePath: 'src/held.js' } },
      { tool: 'edit', args: { filePath: 'src/held.js', oldString: 'held = 1', newString: 'held = 2' } },
      { chunks: ['Done.'] },
    );
    await send('Bump held');
    const prompt = page.locator('[data-testid=permission]', { hasText: 'src/held.js' });
    await prompt.waitFor({ timeout: 60_000 });
    // The agent's edit holds the file's lock while its question is open: the save waits.
    await page.click('[data-testid=editor-save]');
    await expect.poll(() => page.locator('[data-testid=editor-status]').textContent()).toBe('saving…');
    expect(await fileText(root, 'src/held.js')).toBe('export const held = 1;\n');
    await prompt.locator('[data-testid=allow-once]').click();
    await page.locator('[data-testid=merge-view]').waitFor({ timeout: 60_000 });
    await idle();
    expect(await fileText(root, 'src/held.js')).toBe('export const held = 2;\n');
    await page.click('[data-testid=take-theirs]');
    await expect.poll(editorText).toContain('held = 2');
    expect(await page.locator('[data-testid=editor-status]').textContent()).toBe('');
    expect(await fileText(root, 'src/held.js')).toBe('export const held = 2;\n');
    expect(ui.errors).toEqual([]);
  });
});

describe('the permission preview of a new file', () => {
  test('shows its 7 lines added: no removed empty line 1, no extra "+" line', async () => {
    const content = Array.from({ length: 7 }, (_, i) => `export const n${i + 1} = ${i + 1};`).join('\n') + '\n';
    model.queue.push({ tool: 'write', args: { filePath: 'src/new.js', content } }, { chunks: ['Wrote it.'] });
    await send('Write src/new.js');
    const prompt = page.locator('[data-testid=permission]', { hasText: 'src/new.js' });
    await prompt.waitFor({ timeout: 60_000 });
    expect(await prompt.locator('.preview-name').innerText()).toBe('src/new.js +7 −0');
    const preview = prompt.locator('[data-testid=diff-preview]');
    await expect.poll(() => preview.locator('.preview-mark-added').count(), { timeout: 20_000 }).toBe(7);
    expect(await preview.locator('.view-line').count()).toBe(7);
    expect(await preview.locator('.line-delete, .preview-mark-removed').count()).toBe(0);
    await prompt.scrollIntoViewIfNeeded();
    await shots('files-new-file-preview');
    await prompt.locator('[data-testid=allow-once]').click();
    await idle();
    expect(await fileText(root, 'src/new.js')).toBe(content);
    expect(ui.errors).toEqual([]);
  });
});

describe('@-mentions', () => {
  test('@path:range attaches those lines to the message; the model receives them; the transcript shows a chip', async () => {
    await page.fill('[data-testid=composer]', '');
    await page.locator('[data-testid=composer]').click();
    await page.keyboard.type('Explain @conf');
    await page.locator('[data-testid=mention-list]').waitFor();
    expect(await page.locator('[data-testid=mention-list] li').allTextContents()).toEqual(['src/config.json']);
    await page.keyboard.press('Tab');
    expect(await page.locator('[data-testid=composer]').inputValue()).toBe('Explain @src/config.json ');
    await page.keyboard.type('and @src/app.js:2-2');
    model.queue.push({ chunks: ['It sets the port.'] });
    const before = model.bodies.length;
    await page.keyboard.press('Enter');
    await page.locator('.message.assistant .markdown', { hasText: 'It sets the port.' }).waitFor({ timeout: 60_000 });
    await idle();
    const sent = JSON.stringify(model.bodies[before]?.messages);
    expect(sent).toContain('<attached-file path=\\"src/config.json\\">\\n{ \\"port\\": 8080 }\\n\\n</attached-file>');
    expect(sent).toContain(
      '<attached-file path=\\"src/app.js\\" lines=\\"2-2\\">\\nexport const name = \\"app\\";\\n</attached-file>',
    );
    expect(await page.locator('[data-testid=attached-chip]').allTextContents()).toEqual([
      'src/config.json',
      'src/app.js:2-2',
    ]);
    await shot(page, 'files-mention');
    expect(ui.errors).toEqual([]);
  });
});

describe('switching projects with the Files tab open', () => {
  test('the tree of the project switched to is listed, never left at "Loading files…"', async () => {
    const other = join(ui.app.temp, 'other-project');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'other.txt'), 'other\n');
    // Give the other project a session, then come back to the first one with its Files tab open.
    await page.keyboard.press('Control+O');
    await page.fill('[data-testid=project-path]', other);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await page.locator('[data-testid=chat]').waitFor();
    for (let round = 0; round < 3; round++) {
      for (const [dir, file] of [
        [root, 'src/app.js'],
        [other, 'other.txt'],
      ] as const) {
        await page.click('[data-testid=show-files]');
        await page.keyboard.press('Control+O');
        await page.locator('[data-testid=project-picker] .recent button', { hasText: dir }).click();
        await page.locator('[data-testid=session-item] .session-title').first().click();
        await page.locator(`[data-testid=file-tree] [data-path="${file}"]`).waitFor({ timeout: 10_000 });
      }
    }
    expect(ui.errors).toEqual([]);
  });
});
