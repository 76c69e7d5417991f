/**
 * Compaction in the chat, in a real browser against the web host with a scripted OpenAI-compatible model (every
 * request body recorded): two turns, then `/compact` from the slash menu sends one summary request; the marker
 * "Context compacted · N → M tokens" appears in the transcript, opens to the summary and the folded messages;
 * Undo marks it undone and the next request carries the whole history again (no summary), Redo puts it back.
 * Screenshots at 1440, 1024 and 800 px, light and dark.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, openProjectWith, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

const SUMMARY = 'The user asked for a shout flag; the greeter was read and the plan agreed. Next: write the test.';

let model: ScriptedModel;
let ui: AppInBrowser;
let page: Page;

async function send(text: string): Promise<void> {
  await page.fill('[data-testid=composer]', text);
  await page.press('[data-testid=composer]', 'Enter');
}

async function idle(): Promise<void> {
  await page.waitForSelector('[data-testid=busy]', { state: 'detached', timeout: 60_000 });
}

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({
    defaultProvider: 'local',
    providers: [{ id: 'local', kind: 'openai-compatible', baseURL: model.baseURL, model: 'm' }],
    permissions: [],
  });
  page = ui.page;
  await openProjectWith(ui, 'compaction-project', {
    'greet.ts': 'export const greet = (n: string): string => `hi ${n}`;\n',
  });
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

describe('compaction in the chat', () => {
  test('/compact shows a marker that opens to the summary and the folded messages, and undoes', async () => {
    await page.click('[data-testid=new-session]');
    await page.locator('[data-testid=chat]').waitFor();
    model.queue.push({ chunks: ['I read the greeter; a shout flag fits in its options.'] });
    await send('Add a shout flag to the greeter');
    await page.getByText('a shout flag fits').waitFor();
    await idle();
    model.queue.push({ chunks: ['Agreed: the flag upper-cases the whole line.'] });
    await send('Make it upper-case the whole line');
    await page.getByText('upper-cases the whole line').waitFor();
    await idle();

    // the slash menu offers /compact; Enter runs it
    await page.fill('[data-testid=composer]', '/comp');
    await page.getByText('Fold the older history into a summary now').waitFor();
    const before = model.bodies.length;
    model.queue.push({ chunks: [SUMMARY] });
    await page.fill('[data-testid=composer]', '/compact');
    await page.press('[data-testid=composer]', 'Enter');
    const marker = page.locator('[data-testid=compaction-marker]');
    await marker.waitFor();
    await idle();
    expect(model.bodies.length).toBe(before + 1);
    expect(JSON.stringify(model.bodies[before])).toContain('Add a shout flag to the greeter');
    expect(await marker.locator('[data-testid=compaction-line]').textContent()).toMatch(
      /^Context compacted · [\d,]+ → [\d,]+ tokens$/,
    );

    await marker.locator('summary').click();
    expect(await marker.locator('[data-testid=compaction-summary]').textContent()).toBe(SUMMARY);
    expect(await marker.locator('[data-testid=compaction-folded] li').first().textContent()).toBe(
      'You Add a shout flag to the greeter',
    );
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 1024, 800]) {
        await page.setViewportSize({ width, height: 820 });
        await shot(page, `compaction-marker-${width}-${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 820 });

    // with the compaction in force, the next request carries the summary
    model.queue.push({ chunks: ['ok'] });
    await send('Now the test');
    await page.getByText('ok', { exact: true }).waitFor();
    await idle();
    expect(JSON.stringify(model.bodies[model.bodies.length - 1])).toContain(SUMMARY);

    await marker.locator('[data-testid=compaction-toggle]').click();
    await expect
      .poll(() => marker.locator('[data-testid=compaction-line]').textContent())
      .toMatch(/^Compaction undone/);
    expect(await marker.locator('[data-testid=compaction-toggle]').textContent()).toBe('Redo');
    await shot(page, 'compaction-marker-undone');
    model.queue.push({ chunks: ['fine'] });
    await send('And the docs');
    await page.getByText('fine', { exact: true }).waitFor();
    await idle();
    const last = JSON.stringify(model.bodies[model.bodies.length - 1]);
    expect(last).not.toContain(SUMMARY);
    expect(last).toContain('"content":"Add a shout flag to the greeter"');
    expect(ui.errors).toEqual([]);
  });
});
