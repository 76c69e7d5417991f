/**
 * MCP servers in Settings, in Chromium against the web host: the user's server from settings.json is listed as
 * connected with its tools and their token cost; a tool is turned off (saved in settings.json); the project's own
 * .mcp.json is not started until the folder is trusted and the file approved, then its server is listed.
 * Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, sampleProject, shot, ROOT, type AppInBrowser } from './harness';

const SERVER = resolve(ROOT, 'src/main/reach/mcp/testing/server.mjs');
let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  ui = await openApp({
    defaultProvider: 'ollama',
    providers: [{ id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'm' }],
    permissions: [],
    mcp: { servers: { notes: { command: process.execPath, args: [SERVER] } } },
  });
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
});

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

describe('MCP servers in Settings', () => {
  test('lists a settings server with tools and tokens; a project server waits for trust and approval', async () => {
    const root = await realpath(await sampleProject(ui.app.temp, 'with-mcp'));
    const marker = join(root, 'started.txt');
    await writeFile(
      join(root, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          own: { command: 'sh', args: ['-c', `echo > '${marker}'; exec '${process.execPath}' '${SERVER}'`] },
        },
      }),
    );
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=open-settings]');
    const section = page.locator('[data-testid=mcp-servers]');
    const notes = section.locator('[data-testid=mcp-server][data-state=connected]');
    await notes.waitFor({ timeout: 30_000 });
    expect(await notes.innerText()).toMatch(/notes[\s\S]*connected[\s\S]*\d+ tokens per request[\s\S]*notes_echo/);
    expect(await section.locator('[data-testid=mcp-server][data-state=untrusted]').innerText()).toMatch(/own/);
    expect(existsSync(marker)).toBe(false);
    await section.scrollIntoViewIfNeeded();
    await shots('mcp-settings');

    const crash = notes.getByRole('checkbox', { name: /notes_crash/ });
    await crash.click(); // controlled: it changes once main answered
    await expect
      .poll(
        async () =>
          JSON.parse(await readFile(join(ui.app.dataDir, 'settings.json'), 'utf8')).mcp.servers.notes.disabledTools,
      )
      .toEqual(['crash']);

    await page.click('[data-testid=trust-this-folder]');
    await page.click('[data-testid=mcp-approve]');
    await section
      .locator('[data-testid=mcp-server][data-state=connected]', { hasText: 'own' })
      .waitFor({ timeout: 30_000 });
    expect(existsSync(marker)).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await shots('mcp-settings-approved');
    expect(ui.errors).toEqual([]);
  });
});
