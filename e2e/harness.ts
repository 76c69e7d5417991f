/**
 * The end-to-end harness: a temp data folder, the web host over real services (src/main/host/serve.ts), and a
 * headless Debian Chromium via playwright-core (never `npx playwright install`: no browser download here). Every
 * page records console errors and page errors so a test can require zero of them; screenshots go to
 * test-results/e2e/.
 */
import { mkdtemp, mkdir, rm, cp, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { serve } from '../src/main/host/serve';
import type { Served } from '../src/main/host/serve';

export const ROOT = process.cwd();
export const SHOTS = resolve(ROOT, 'test-results/e2e');
export const SAMPLE = resolve(ROOT, 'resources/sample');

/** Chromium from the system (Debian package); the flags keep it quiet and offline. */
export function chromiumPath(): string {
  for (const p of [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'])
    if (p && existsSync(p)) return p;
  throw new Error('Chromium is missing: install it with `apt-get install chromium` (.ci/run does).');
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}

export interface AppUnderTest {
  served: Served;
  dataDir: string;
  temp: string;
  close(): Promise<void>;
}

/**
 * Starts the web host with a fresh data folder. `settings` (the core's settings.json) is written first when
 * given — e.g. permission rules that make edits ask.
 */
export async function startApp(settings?: unknown): Promise<AppUnderTest> {
  const temp = await mkdtemp(join(tmpdir(), 'landfall-e2e-'));
  const dataDir = join(temp, 'data');
  await mkdir(dataDir, { recursive: true });
  if (settings !== undefined) await writeFile(join(dataDir, 'settings.json'), JSON.stringify(settings, null, 2));
  const served = await serve({ projectRoot: ROOT, dataDir });
  return {
    served,
    dataDir,
    temp,
    async close() {
      await served.close();
      await rm(temp, { recursive: true, force: true });
    },
  };
}

/** The app started, Chromium launched and the app's page open; `close` ends the browser, then the app. */
export interface AppInBrowser {
  app: AppUnderTest;
  browser: Browser;
  page: Page;
  errors: string[];
  /** Every contract call the page sent over the web host's socket, by name, in order. */
  calls: string[];
  /** Every event the page received, by type, with `at`: how many calls had been sent when it arrived. */
  events: { type: string; at: number }[];
  close(): Promise<void>;
}

/** startApp(settings), launchBrowser and openPage on the host's URL (with its one-time token), in one call. */
export async function openApp(settings?: unknown): Promise<AppInBrowser> {
  const app = await startApp(settings);
  const browser = await launchBrowser();
  const { page, errors, calls, events } = await openPage(browser, app.served.host.url);
  return {
    app,
    browser,
    page,
    errors,
    calls,
    events,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

/**
 * Writes `files` (project-relative path → text; folders are made as needed) into a new folder `<app temp>/<name>`
 * and opens it from the page's project picker, as a user would. Answers the folder's path.
 */
export async function openProjectWith(
  ui: AppInBrowser,
  name: string,
  files: Record<string, string> = {},
): Promise<string> {
  const root = join(ui.app.temp, name);
  await mkdir(root, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), text);
  }
  await ui.page.waitForSelector('[data-testid=project-picker]');
  await ui.page.fill('[data-testid=project-path]', root);
  await ui.page.click('[data-testid=open-project]');
  return root;
}

/** Copies the bundled sample project into a fresh folder under `temp`; returns its path. */
export async function sampleProject(temp: string, name = 'greeter'): Promise<string> {
  const dir = join(temp, name);
  await cp(join(SAMPLE, 'project'), dir, { recursive: true });
  return dir;
}

/** The sample recording's expected end state (path → text). */
export async function sampleEndState(): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(SAMPLE, 'expected/end-state.json'), 'utf8')) as Record<string, string>;
}

/** A socket frame's JSON, or null for one that is not JSON (a test may send garbage on purpose). */
function frame(payload: string | Buffer): unknown {
  try {
    return JSON.parse(String(payload));
  } catch {
    return null;
  }
}

/**
 * A page whose console errors and uncaught errors are collected in `errors`; the name of every contract call it
 * sends over the web host's socket (frames `{ id, call, input }`) in `calls`, and the type of every event it
 * receives (frames `{ event }`) in `events`, in order.
 */
export async function openPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; errors: string[]; calls: string[]; events: { type: string; at: number }[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 820 }, colorScheme: 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  const calls: string[] = [];
  const events: { type: string; at: number }[] = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      const call = (frame(f.payload) as { call?: unknown } | null)?.call;
      if (typeof call === 'string') calls.push(call);
    });
    ws.on('framereceived', (f) => {
      const type = (frame(f.payload) as { event?: { type?: unknown } } | null)?.event?.type;
      if (typeof type === 'string') events.push({ type, at: calls.length });
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    errors.push(`pageerror: ${e.message}`);
    if (process.env.E2E_STACKS) console.log(`pageerror stack: ${e.stack}`); // E2E_STACKS=1: where it was thrown
  });
  await page.goto(url);
  return { page, errors, calls, events };
}

/** Saves a full-window screenshot as test-results/e2e/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Reads a file of the project as UTF-8 text, or null when it does not exist. */
export async function fileText(root: string, rel: string): Promise<string | null> {
  try {
    return await readFile(join(root, rel), 'utf8');
  } catch {
    return null;
  }
}

/**
 * True when the visible message rows do not overlap: each row starts at or below the previous row's bottom
 * (the virtualized list measured every row after it changed size).
 */
export async function rowsDoNotOverlap(page: Page): Promise<boolean> {
  const boxes = (await page.evaluate(`[...document.querySelectorAll('.row')]
    .map((r) => ({ i: Number(r.getAttribute('data-index')), top: r.getBoundingClientRect().top, bottom: r.getBoundingClientRect().bottom }))
    .sort((a, b) => a.i - b.i)`)) as { top: number; bottom: number }[];
  return boxes.every((b, k) => k === 0 || b.top >= (boxes[k - 1] as { bottom: number }).bottom - 1);
}
