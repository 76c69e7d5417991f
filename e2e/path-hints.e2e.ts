/**
 * A tool given a path that does not exist answers with paths that do (src/main/tools/path-hints.ts), in a real
 * browser against the web host with a scripted OpenAI-compatible model: the model's read of `Src/Greet.ts` and of
 * `greet.ts` (the right name in the wrong folder) get `file_not_found` whose text names `src/greet.ts`, in the tool
 * result the model is sent next (checked on the recorded request) and on the chat's tool card; `lib/greet.ts`,
 * which a read deny rule withholds, is never offered although its name matches. Screenshot: test-results/e2e/path-hints-*.png.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, openProjectWith, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [{ permission: 'read', pattern: 'lib/**', action: 'deny' }],
  });
  page = ui.page;
  await openProjectWith(ui, 'hints-project', {
    'src/greet.ts': 'export const greet = (n: string) => `hi ${n}`;\n',
    'lib/greet.ts': 'export const key = "not for the model";\n',
  });
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

/** The text of the tool results in request `i` (what the model was sent). */
function toolResults(i: number): string {
  return JSON.stringify((model.bodies[i]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content));
}

describe('file_not_found hints', () => {
  test('a mistyped case and a wrong folder are answered with the path that exists, to the model and on the card', async () => {
    model.queue.push(
      { tool: 'read', args: { filePath: 'Src/Greet.ts' } },
      { tool: 'read', args: { filePath: 'greet.ts' } },
      { chunks: ['It is src/greet.ts.'] },
    );
    await page.click('[data-testid=new-session]');
    await page.fill('[data-testid=composer]', 'Read the greeter');
    await page.press('[data-testid=composer]', 'Enter');
    await expect.poll(() => model.bodies.length, { timeout: 60_000 }).toBe(3);
    await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
    const first = toolResults(1);
    expect(first).toContain('file_not_found');
    expect(first).toContain('Did you mean: src/greet.ts?');
    const second = toolResults(2);
    expect(second.split('Did you mean: src/greet.ts?').length - 1).toBe(2);
    expect(second).not.toContain('lib/greet.ts');
    const chat = page.getByTestId('message-list');
    await expect.poll(() => chat.innerText(), { timeout: 15_000 }).toContain('Did you mean: src/greet.ts?');
    expect(await chat.innerText()).not.toContain('lib/greet.ts');
    await shot(page, 'path-hints-card');
    expect(ui.errors).toEqual([]);
  });
});
