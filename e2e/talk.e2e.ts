/**
 * Talking with the agent in a real browser against the web host, a local OpenAI-compatible server playing the
 * model (every request body recorded): the todo panel fills as the model writes its list; a question card is
 * answered with the keyboard (↓, Enter) and the model reads the answer; Ctrl+. in the input switches to plan mode and a write is
 * refused (no file, the request offered no write tool); the model picker sends the next request to the other
 * model and the step shows it; two messages typed while a turn runs are queued and then run in order. Screenshots
 * at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
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
const text = (t: string): string => sse([chunk({ content: t }), chunk({}, 'stop')]);

const TODOS = [
  { content: 'read the config loader', status: 'done' },
  { content: 'pick the database', status: 'in_progress' },
  { content: 'write the migration', status: 'pending' },
];

/** The model's answers, one per request, across the three turns. */
const STEPS = [
  call('t1', 'todowrite', { todos: TODOS }),
  call('q1', 'question', {
    question: 'Which database should the app use?',
    header: 'Database',
    options: [
      { label: 'SQLite', description: 'a file, no server' },
      { label: 'Postgres', description: 'a server' },
    ],
  }),
  text('Postgres it is.'),
  call('w1', 'write', { filePath: 'plan.txt', content: 'not in plan mode\n' }),
  text('I cannot write in plan mode; here is the plan instead.'),
  text('Hello from model b.'),
  text('The slow answer.'),
  text('Answer to queued one.'),
  text('Answer to queued two.'),
];

/** The request the server holds until the test has queued two messages (index into STEPS). */
const HELD = 6;
let release = (): void => undefined;
const released = new Promise<void>((r) => (release = r));
let heldArrived = (): void => undefined;
const arrived = new Promise<void>((r) => (heldArrived = r));

interface Body {
  model?: string;
  tools?: { function: { name: string } }[];
  messages?: { role: string; content: unknown }[];
}

let http: Server;
const bodies: Body[] = [];
let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      bodies.push(JSON.parse(body) as Body);
      const n = bodies.length - 1;
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(STEPS[n] ?? text('done'));
      };
      if (n !== HELD) return answer();
      heldArrived();
      void released.then(answer);
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  ui = await openApp({
    defaultProvider: 'first',
    providers: [
      { id: 'first', kind: 'openai-compatible', baseURL: base, model: 'model-a' },
      { id: 'second', kind: 'openai-compatible', baseURL: base, model: 'model-b' },
    ],
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
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

const toolNames = (b: Body | undefined): string[] => (b?.tools ?? []).map((t) => t.function.name);
const idle = (): Promise<unknown> => page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 30_000 });

describe('talking with the agent', () => {
  test('todo panel, question card by keyboard, plan mode refuses a write, model picker, queued messages', async () => {
    const root = join(ui.app.temp, 'talk-proj');
    await mkdir(root, { recursive: true });
    await page.waitForSelector('[data-testid=project-picker]');
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');
    await page.waitForSelector('[data-testid=mode-switch]');
    expect(await page.textContent('[data-testid=mode-switch]')).toBe('build');

    // turn 1: the list fills, then a question waits; ↓ Enter answers "Postgres"
    await page.fill('[data-testid=composer]', 'set up the database');
    await page.press('[data-testid=composer]', 'Enter');
    const card = page.locator('[data-testid=question]');
    await card.waitFor({ timeout: 30_000 });
    const items = page.locator('[data-testid=todo-item]');
    expect(await items.evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-status')]))).toEqual(
      TODOS.map((t) => [expect.stringContaining(t.content), t.status]),
    );
    await card.locator('[data-testid=question-option]').first().waitFor();
    await shots('30-talk-question-todo');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await idle();
    expect(JSON.stringify(bodies[2]?.messages)).toContain('The user answered: Postgres');

    // turn 2: Ctrl+. in the input switches to plan (Tab moves the focus on); the write is refused, nothing written
    await page.focus('[data-testid=composer]');
    await page.keyboard.press('Control+.');
    await page.locator('[data-testid=mode-switch]', { hasText: 'plan' }).waitFor();
    await page.fill('[data-testid=composer]', 'write the plan to plan.txt');
    await page.press('[data-testid=composer]', 'Enter');
    const refused = page.locator('.tool-card[data-tool=write] .tool-error');
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.textContent()).toMatch(/^Error \(tool_not_offered\): Not run: write is not among the tools/);
    await idle();
    expect(toolNames(bodies[3])).not.toContain('write');
    expect(toolNames(bodies[3])).toContain('read');
    expect(await fileText(root, 'plan.txt')).toBeNull();
    await shots('31-talk-plan-refused');

    // turn 3: the picker sends the next request to model-b; the step says which model answered
    await page.selectOption('[data-testid=model-picker]', { label: 'second / model-b' });
    await page.fill('[data-testid=composer]', 'hello');
    await page.press('[data-testid=composer]', 'Enter');
    await page.locator('text=Hello from model b.').waitFor({ timeout: 30_000 });
    await idle();
    expect(bodies.map((b) => b.model)).toEqual(['model-a', 'model-a', 'model-a', 'model-a', 'model-a', 'model-b']);
    expect(await page.locator('[data-testid=step-model]').last().textContent()).toBe('second/model-b · plan');
    await shots('32-talk-model-switch');

    // turn 4: two messages typed while the turn runs are queued, then run in order
    await page.fill('[data-testid=composer]', 'take your time');
    await page.press('[data-testid=composer]', 'Enter');
    await arrived;
    await page.waitForSelector('[data-testid=busy]');
    for (const m of ['queued one', 'queued two']) {
      await page.fill('[data-testid=composer]', m);
      await page.press('[data-testid=composer]', 'Enter');
    }
    const queued = page.locator('[data-testid=queued-item]');
    await page.locator('[data-testid=queued-item]').nth(1).waitFor();
    expect(await queued.locator('.queued-text').allTextContents()).toEqual(['queued one', 'queued two']);
    await shots('33-talk-queued');
    release();
    // the queued turns' requests are checked below; here their answers are read at the end of the list
    await expect
      .poll(
        async () => {
          await page.evaluate(`(() => {
          const el = document.querySelector('[data-testid=message-list]');
          el.scrollTop = el.scrollHeight;
        })()`);
          return page.locator('text=Answer to queued two.').isVisible();
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await idle();
    await page.locator('[data-testid=queued]').waitFor({ state: 'detached' });
    const lastUser = (b: Body | undefined): unknown => b?.messages?.filter((m) => m.role === 'user').at(-1)?.content;
    expect([lastUser(bodies[6]), lastUser(bodies[7]), lastUser(bodies[8])]).toEqual([
      'take your time',
      'queued one',
      'queued two',
    ]);
    expect(ui.errors).toEqual([]);
  });
});
