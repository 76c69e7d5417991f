/**
 * The permission prompt in a real browser against the web host, with a local OpenAI-compatible server playing the
 * model (every request body recorded): a bash question shows the exact command and what "always" will allow;
 * editing it into the pattern `npm test` allows the next `npm test …` without a question, while a destructive
 * command offers "exactly this" only and a write into .git gets the warning and no "always". Screenshots at
 * 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fileText, openApp, shot, type AppInBrowser } from './harness';

const sse = (chunks: unknown[]): string =>
  `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const call = (id: string, name: string, args: unknown): string =>
  sse([
    chunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] }),
    chunk({}, 'tool_calls'),
  ]);

/** The model's steps, in order: two npm test runs, a destructive command, a write into .git, then done. */
const STEPS = [
  call('b1', 'bash', { command: 'npm test -- --watch=false', description: 'run the tests' }),
  call('b2', 'bash', { command: 'npm test -- --coverage', description: 'coverage' }),
  call('b3', 'bash', { command: 'rm -rf build', description: 'clean the build folder' }),
  call('w1', 'write', { filePath: '.git/hooks/pre-commit', content: '#!/bin/sh\necho hi\n' }),
  sse([chunk({ content: 'done' }, 'stop')]),
];

let http: Server;
const bodies: string[] = [];
let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(STEPS[Math.min(bodies.length - 1, STEPS.length - 1)]);
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }],
    permissions: [],
  });
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
  http.closeAllConnections();
  await new Promise<void>((r) => http.close(() => r()));
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

describe('the permission prompt says what it allows', () => {
  test('always: exact command, an edited pattern, exact-only commands, and the .git warning', async () => {
    const root = join(ui.app.temp, 'perm-proj');
    await mkdir(join(root, 'build'), { recursive: true });
    await mkdir(join(root, '.git/hooks'), { recursive: true });
    await writeFile(join(root, 'build/out.js'), 'built\n');
    await writeFile(join(root, 'package.json'), '{"scripts":{"test":"node -e 0"}}\n');
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await page.fill('[data-testid=composer]', 'run the tests, then clean up');
    await page.press('[data-testid=composer]', 'Enter');

    const first = page.locator('[data-testid=permission]');
    await first.waitFor({ timeout: 30_000 });
    expect(await first.locator('[data-testid=permission-what]').textContent()).toBe('npm test -- --watch=false');
    expect(await first.locator('[data-testid=always-note]').textContent()).toBe(
      'Will allow for this session: exactly “npm test -- --watch=false”',
    );
    await first.locator('[data-testid=always-edit]').click();
    await first.locator('[data-testid=always-pattern]').fill('npm test');
    expect(await first.locator('[data-testid=always-note]').textContent()).toMatch(
      /^Will allow for this session: any command starting with “npm test”/,
    );
    await shots('13-permission-always-pattern');
    await first.locator('[data-testid=allow-always]').click();

    // the second npm test runs without a question; the destructive one is asked, exact only
    const rm = page.locator('[data-testid=permission]', { hasText: 'rm -rf build' });
    await rm.waitFor({ timeout: 30_000 });
    expect(await rm.locator('[data-testid=always-edit]').count()).toBe(0);
    expect(await rm.locator('[data-testid=always-note]').textContent()).toMatch(
      /^Will allow for this session: exactly “rm -rf build” — rm destroys or overwrites data, so only this exact command$/,
    );
    await shots('14-permission-destructive');
    await rm.locator('[data-testid=reject]').click();
    await rm.locator('[data-testid=reject-send]').click();

    const git = page.locator('[data-testid=permission]', { hasText: '.git/hooks/pre-commit' });
    await git.waitFor({ timeout: 30_000 });
    // edits are allowed by default, so the only question is the dedicated git_dir one, with its warning
    await git.locator('[data-testid=git-dir-warning]').waitFor();
    expect(await git.locator('[data-testid=allow-always]').count()).toBe(0);
    await shots('15-permission-git-dir');
    await git.locator('[data-testid=reject]').click();
    await git.locator('[data-testid=reject-send]').click();
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });

    expect(await fileText(root, 'build/out.js')).toBe('built\n');
    expect(await fileText(root, '.git/hooks/pre-commit')).toBeNull();
    // the model was told the second npm test ran (no question), and that the rm was rejected
    expect(bodies[2]).toMatch(/exit code/);
    expect(ui.errors).toEqual([]);
  });
});
