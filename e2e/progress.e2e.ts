/**
 * Progress of long operations in the chat window, in Chromium through the web host (issue 18 §2). Opening a
 * project of 12,000 files starts its first snapshot in the worker at once — no message sent, no step run — and the
 * window shows a bar named "First snapshot of the project" with the files counted, gone when the walk ends. An
 * import upload held open part by part (each part a `progress` report: the bar moves, nothing waits on a clock)
 * shows a determinate bar on the empty chat and above a session's messages; screenshots at 1440, 1024 and 800 px,
 * light and dark. Every wait is on the DOM or on a call's answer.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, shot, type AppInBrowser } from './harness';

const FILES = 12_000;
/** A bound for the first walk under a loaded machine; the test waits on the DOM, this only ends a hung one. */
const WALK_BOUND_MS = 240_000;
const PARTS = 12;

let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  ui = await openApp();
  page = ui.page;
});

afterAll(async () => {
  await ui?.close();
});

/** A project of FILES files in nested folders, 200 B – 4 KB each. */
function bigProject(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${i % 12}`, `mod${i % 17}`, `part${i % 4}`);
    if (i < 12 * 17 * 4) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.padEnd(200 + ((i * 7919) % 3800), '/'));
  }
}

/** Calls a contract handler of the host directly (its events still reach the page through the socket). */
async function handle<T>(name: string, input: unknown): Promise<T> {
  const h = (ui.app.served.services.handlers as Record<string, (i: unknown) => Promise<unknown>>)[name]!;
  const r = (await h(input)) as { ok: boolean; value?: T; error?: { message: string } };
  if (!r.ok) throw new Error(`${name}: ${r.error?.message}`);
  return r.value as T;
}

describe('progress bar', () => {
  test(
    'opening a big project shows its first snapshot’s progress; a held import shows a determinate bar',
    async () => {
      const root = join(ui.app.temp, 'big');
      mkdirSync(root);
      bigProject(root);
      await page.waitForSelector('[data-testid=project-picker]');
      const real = await realpath(root);
      await page.fill('[data-testid=project-path]', real);
      await page.click('[data-testid=open-project]');

      // The first track runs in the worker as soon as the project is open: its bar, named, with files counted.
      const first = page.locator('[data-testid=progress-bar][data-operation=first-track]');
      await first.waitFor({ timeout: WALK_BOUND_MS });
      expect(await first.locator('.progress-name').innerText()).toBe('First snapshot of the project');
      await shot(page, 'progress-first-track-1280-light').catch(() => undefined); // may end while the shot is taken
      await first.waitFor({ state: 'detached', timeout: WALK_BOUND_MS });
      const types = ui.events.map((e) => e.type);
      expect(types.filter((t) => t === 'progress').length).toBeGreaterThan(1);
      // Started by opening the project alone: no session made, no message sent, no step run.
      expect(ui.calls).toContain('projects.open');
      expect(ui.calls.filter((c) => /^(chat|queue)\.|^sessions\.create$/.test(c))).toEqual([]);
      const projectId = (await handle<{ id: string; root: string }[]>('projects.list', {})).find(
        (p) => p.root === real,
      )!.id;

      // A session export to upload, held open part by part.
      const made = await handle<{ id: string }>('sessions.create', { projectId, title: 'imported later' });
      const { json } = await handle<{ json: string }>('sessions.export', { sessionId: made.id });
      const { uploadId } = await handle<{ uploadId: string }>('sessions.importBegin', {
        projectId,
        length: json.length,
      });
      const chunk = Math.ceil(json.length / PARTS);
      let sent = 0;
      const bar = page.locator('[data-testid=progress-bar][data-operation=import]');
      /** Sends the next part and waits until the bar shows what has arrived. */
      const nextPart = async (): Promise<void> => {
        const text = json.slice(sent * chunk, (sent + 1) * chunk);
        await handle('sessions.importPart', { uploadId, offset: sent * chunk, text });
        sent++;
        const percent = Math.floor((Math.min(json.length, sent * chunk) / json.length) * 100);
        await bar.locator(`[role=progressbar][aria-valuenow="${percent}"]`).waitFor();
      };
      const shots = async (name: string): Promise<void> => {
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const width of [1440, 1024, 800]) {
            await page.setViewportSize({ width, height: 820 });
            await nextPart();
            await shot(page, `${name}-${width}-${scheme}`);
          }
        }
        await page.emulateMedia({ colorScheme: 'light' });
        await page.setViewportSize({ width: 1280, height: 820 });
      };
      await shots('progress-empty');
      expect(await bar.locator('.progress-name').innerText()).toBe('Importing a session');
      expect(await bar.locator('.progress-detail').innerText()).toMatch(/^receiving · [\d,]+ of [\d,]+ characters$/);

      await page.click('[data-testid=new-session]');
      await page.waitForSelector('[data-testid=chat] .chat-head');
      await shots('progress-chat');
      expect(sent).toBe(PARTS);
      const imported = await handle<{ title: string }>('sessions.importEnd', { uploadId });
      expect(imported.title).toBe('imported later');
      await bar.waitFor({ state: 'detached' });
      expect(await page.locator('[data-testid=progress-bar]').count()).toBe(0);
      expect(ui.errors).toEqual([]);
    },
    2 * WALK_BOUND_MS,
  );
});
