/**
 * Review UI benchmark (`npm run bench:ui-review`), headless Debian Chromium against the web host over real
 * services. The session is built beforehand in the data folder with the real stores (SessionStore, SnapshotStore):
 *   1. open time of a 10,000-line file diff (200 scattered hunks, each with its Keep/Reject bar): from selecting the
 *      point on the timeline to the diff drawn and the bars mounted; median of 7 cold (page reloaded, main computes
 *      the diff) and 7 reopened (anchor: the target of 1 s);
 *   2. scrubbing a 500-step session: the arrow key across all 500 points, and a mouse drag along the scrubber bar;
 *      frame intervals while scrubbing (anchor: 16.7 ms, one frame at 60 Hz) and the longest task;
 *   3. a decision on that big diff: Keep (Ctrl+Y) and Reject (Ctrl+N) of the focused hunk, from the key press to the
 *      bar redrawn in its new state; median of 9 each, with the calls the page sent per decision (every review.diff
 *      and review.decide makes main compute the target's whole diff once). Anchor: the cold open of the same diff
 *      in the same run (a decision that costs a diff reload pays about one cold open on top of the decision).
 * Figures are taken on a shared 2-core machine under load from other work; they are medians, not best cases.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { serve } from '../src/main/host/serve';
import { SessionStore } from '../src/main/session/store';
import { SnapshotStore } from '../src/main/snapshot/store';
import { newId } from '../src/main/session/ids';

const ROOT = process.cwd();
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];
const FRAME_MS = 1000 / 60;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
}

/** Builds the project and a session: step 1 rewrites 200 lines of a 10,000-line file, then 499 one-line steps. */
async function buildSession(dataDir: string, root: string): Promise<void> {
  await mkdir(join(root, 'small'), { recursive: true });
  const big = Array.from({ length: 10_000 }, (_, i) => `line ${i + 1}: ${'x'.repeat(i % 60)}`);
  await writeFile(join(root, 'big.txt'), big.join('\n') + '\n');
  const sessions = SessionStore.open(join(dataDir, 'landfall.db'));
  const snapshots = await SnapshotStore.open({ worktree: root, dataDir, projectId: 'tmp', log: () => {} });
  const project = sessions.upsertProject(snapshots.worktree, 'bench');
  await snapshots.close();
  const store = await SnapshotStore.open({ worktree: root, dataDir, projectId: project.id, log: () => {} });
  const sessionId = sessions.createSession(project.id, 'Five hundred steps').id;
  sessions.addMessage(sessionId, 'user', 'bench');
  const messageId = sessions.addMessage(sessionId, 'assistant').id;
  const part = { sessionId, messageId, time: Date.now() };
  for (let s = 0; s < 500; s++) {
    const from = await store.track();
    sessions.putPart({ ...part, id: newId('prt'), type: 'step-start', snapshot: from });
    const file = s === 0 ? 'big.txt' : `small/f${s % 40}.txt`;
    if (s === 0)
      await writeFile(
        join(root, 'big.txt'),
        big.map((l, i) => (i % 50 === 7 ? `${l} // changed` : l)).join('\n') + '\n',
      );
    else await writeFile(join(root, file), `step ${s}\n`);
    sessions.putPart({
      ...part,
      id: newId('prt'),
      type: 'tool',
      tool: s === 0 ? 'edit' : 'write',
      callId: newId('call'),
      state: 'completed',
      input: { filePath: file },
    });
    const to = await store.track();
    sessions.putPart({ ...part, id: newId('prt'), type: 'step-finish', snapshot: to });
  }
  await store.close();
  sessions.close();
}

async function openSession(page: Page, root: string): Promise<void> {
  await page.getByTestId('project-path').fill(root);
  await page.getByTestId('open-project').click();
  await page.locator('[data-testid=session-item] .session-title').first().click();
  await page.locator('[data-testid=timeline-tile]').first().waitFor();
}

/**
 * Poll a page expression until it yields a number ≥ 0 (a string: page.waitForFunction would need eval, which the
 * CSP forbids). Returns that number.
 */
async function waitIn(page: Page, expr: string, timeoutMs = 20_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await page.evaluate<number>(expr);
    if (v >= 0) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${expr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const BARS = "document.querySelectorAll('[data-testid=review-panel] [data-testid=hunk-bar]').length";

/**
 * Milliseconds from selecting point 1 (the big diff) to its diff drawn with all 200 hunk bars mounted. `cold`:
 * the page is reloaded first, so main computes the diff (no renderer cache); Monaco itself is already loaded.
 */
async function openBigDiff(page: Page, root: string, cold: boolean): Promise<number> {
  if (cold) {
    await page.reload();
    await openSession(page, root);
  }
  const strip = page.getByTestId('review-timeline');
  await strip.focus();
  await page.keyboard.press('End');
  await waitIn(page, `${BARS} === 1 ? 1 : -1`);
  await page.evaluate(() => performance.clearMarks('review-diff-shown'));
  const t0 = await page.evaluate(() => performance.now());
  await page.keyboard.press('Home');
  const t1 = await waitIn(
    page,
    `performance.getEntriesByName('review-diff-shown').length > 0 && ${BARS} === 200 ? performance.now() : -1`,
  );
  return t1 - t0;
}

/** Frame intervals (ms) and the longest task while `scrub` runs. */
async function framesDuring(page: Page, scrub: () => Promise<void>): Promise<{ frames: number[]; longest: number }> {
  // A string, not a function: tsx's name helper (__name) does not exist inside the page.
  await page.evaluate(`(() => {
    const w = window;
    w.__frames = [];
    w.__long = 0;
    w.__run = true;
    new PerformanceObserver((l) => l.getEntries().forEach((e) => (w.__long = Math.max(w.__long, e.duration)))).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (now) => {
      w.__frames.push(now - last);
      last = now;
      if (w.__run) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await scrub();
  return page.evaluate<{ frames: number[]; longest: number }>(
    '(window.__run = false, { frames: window.__frames.slice(1), longest: window.__long })',
  );
}

const STATE = (state: string): string =>
  `document.querySelectorAll('[data-testid=review-panel] [data-testid=hunk-bar][data-state=${state}]').length`;

/**
 * Milliseconds from pressing `key` (with focus in the review panel) to `want` bars showing `state`, for `n`
 * decisions in a row on the big diff; and the call names the page sent during each.
 */
async function decisions(
  page: Page,
  sent: string[],
  key: string,
  state: string,
  n: number,
): Promise<{ times: number[]; calls: string[][] }> {
  const times: number[] = [];
  const calls: string[][] = [];
  const start = await page.evaluate<number>(STATE(state));
  for (let i = 1; i <= n; i++) {
    const mark = sent.length;
    const t0 = await page.evaluate(() => performance.now());
    await page.keyboard.press(key);
    const t1 = await waitIn(page, `${STATE(state)} === ${start + i} && ${BARS} === 200 ? performance.now() : -1`);
    times.push(t1 - t0);
    calls.push(sent.slice(mark));
  }
  return { times, calls };
}

function callSummary(calls: string[][]): string {
  const count = new Map<string, number>();
  for (const c of calls.flat()) count.set(c, (count.get(c) ?? 0) + 1);
  return [...count].map(([name, k]) => `${name} ×${(k / calls.length).toFixed(2)}`).join(', ');
}

async function main(): Promise<void> {
  const temp = await mkdtemp(join(tmpdir(), 'landfall-bench-review-'));
  const dataDir = join(temp, 'data');
  const root = join(temp, 'project');
  await mkdir(root, { recursive: true });
  const t0 = performance.now();
  await buildSession(dataDir, root);
  console.log(`built a 500-step session in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const served = await serve({ projectRoot: ROOT, dataDir });
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: ARGS,
    headless: true,
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    // Every call the page sends, by name, in order (the web host's frames: { id, call, input }).
    const sent: string[] = [];
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        const call = (JSON.parse(String(f.payload)) as { call?: string }).call;
        if (call) sent.push(call);
      }),
    );
    await page.goto(served.host.url);
    await openSession(page, root);
    let coldOpen = NaN;
    for (const cold of [true, false]) {
      const opens: number[] = [];
      for (let i = 0; i < 7; i++) opens.push(await openBigDiff(page, root, cold));
      const open = median(opens);
      if (cold) coldOpen = open;
      console.log(
        `10,000-line diff (200 hunks) open, ${cold ? 'cold (main computes it)' : 'reopened (renderer cache)'}: median ${open.toFixed(0)} ms over 7 ` +
          `(min ${Math.min(...opens).toFixed(0)}, max ${Math.max(...opens).toFixed(0)}); ratio to the 1,000 ms anchor ${(open / 1000).toFixed(2)}`,
      );
    }
    const strip = page.getByTestId('review-timeline');
    await strip.focus();
    await page.keyboard.press('Home');
    const keys = await framesDuring(page, async () => {
      for (let i = 0; i < 499; i++) await page.keyboard.press('ArrowRight');
    });
    const box = await page.getByTestId('timeline-scrubber').boundingBox();
    if (!box) throw new Error('no timeline scrubber');
    await page.keyboard.press('Home');
    const drag = await framesDuring(page, async () => {
      await page.mouse.move(box.x, box.y + box.height / 2);
      await page.mouse.down();
      for (let x = 0; x <= 200; x++) await page.mouse.move(box.x + (x / 200) * box.width, box.y + box.height / 2);
      await page.mouse.up();
    });
    const reached = await strip.getAttribute('aria-valuenow');
    for (const [name, r] of [
      ['arrow keys ×499', keys],
      ['mouse drag', drag],
    ] as const) {
      const m = median(r.frames);
      const slow = r.frames.filter((f) => f > 2 * FRAME_MS).length;
      console.log(
        `scrub 500 steps, ${name}: frame median ${m.toFixed(1)} ms (ratio to 16.7 ms ${(m / FRAME_MS).toFixed(2)}), p95 ${pct(r.frames, 0.95).toFixed(1)} ms, ` +
          `${slow}/${r.frames.length} frames over 33 ms, longest task ${r.longest.toFixed(0)} ms`,
      );
    }
    console.log(
      `drag reached point ${Number(reached) + 1} of 500 (tiles virtualized: ${await page.locator('[data-testid=timeline-tile]').count()} in the DOM)`,
    );
    await strip.focus();
    await page.keyboard.press('Home');
    await waitIn(page, `${BARS} === 200 && ${STATE('pending')} === 200 ? 1 : -1`);
    for (const [name, key, state] of [
      ['Keep (Ctrl+Y)', 'Control+y', 'accepted'],
      ['Reject (Ctrl+N)', 'Control+n', 'rejected'],
    ] as const) {
      const r = await decisions(page, sent, key, state, 9);
      console.log(
        `decision on the 10,000-line diff, ${name}: median ${median(r.times).toFixed(0)} ms over 9 (min ${Math.min(...r.times).toFixed(0)}, ` +
          `max ${Math.max(...r.times).toFixed(0)}); ratio to the cold open ${(median(r.times) / coldOpen).toFixed(2)}; ` +
          `calls per decision: ${callSummary(r.calls)}`,
      );
    }
    console.log('(figures taken on a shared 2-core machine under load from other helpers)');
  } finally {
    await browser.close();
    await served.close();
    await rm(temp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
