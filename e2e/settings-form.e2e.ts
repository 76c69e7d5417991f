/**
 * The Settings form in Chromium against the web host, with the scripted OpenAI-compatible server playing the model
 * (every request body recorded):
 *   - an empty provider list is refused by main and the issue shows on the default-provider field;
 *   - a preset fills its model (Anthropic: claude-sonnet-4-5, its key variable, a window from the built-in table);
 *     an unknown model shows the fallback-window warning; two providers are saved ("Saved"), the typed key goes to
 *     the key store and never into settings.json or back into the form; after a reload both are there;
 *   - a deny rule added in Settings applies at the next tool call: the model is answered with the refusal, and no
 *     question is asked;
 *   - a hand edit of settings.json while the form holds edits shows the stale notice, Save is off, and Reload shows
 *     the hand edit; a form with no edits follows the file and says so.
 * Screenshots at 1440, 1024 and 800 px, light and dark; nothing scrolls sideways.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openApp, shot, type AppInBrowser } from './harness';
import { scriptedModel, type ScriptedModel } from './scripted-model';

let ui: AppInBrowser;
let page: Page;
let model: ScriptedModel;
let file: string;

beforeAll(async () => {
  model = await scriptedModel();
  ui = await openApp({ defaultProvider: '', providers: [], permissions: [] });
  page = ui.page;
  file = join(ui.app.dataDir, 'settings.json');
});

afterAll(async () => {
  await ui?.close();
  await model?.close();
});

/** Screenshots at 1440, 1024 and 800 px, light and dark; at each width the page must not scroll sideways. */
async function shots(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 1024, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction(`window.innerWidth === ${width}`);
      const sideways = (await page.evaluate(
        `[document.documentElement, ...document.querySelectorAll('.settings')].some((e) => e.scrollWidth > e.clientWidth + 1)`,
      )) as boolean;
      expect(sideways, `${name} scrolls sideways at ${width} px`).toBe(false);
      await shot(page, `${name}-${width}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 820 });
}

const card = (n: number) => page.locator('[data-testid=provider-card]').nth(n);

async function openSettings(): Promise<void> {
  await page.locator('[data-testid=open-settings]').click();
  await page.locator('[data-testid=providers]').waitFor();
}

describe('the Settings form', () => {
  test('two providers from presets, field issues, Saved, a key never shown back, both there after a reload', async () => {
    await page.waitForSelector('[data-testid=project-picker]');
    await openSettings();
    await page.locator('[data-testid=save-settings]').click();
    const issue = page.locator('[data-testid=field-issue][data-path=defaultProvider]');
    await issue.waitFor();
    expect(await issue.innerText()).toBe('add a provider: the chat needs one');
    expect(await page.locator('[data-testid=save-status]').innerText()).toBe('Not saved');

    await page.selectOption('[data-testid=add-provider]', 'anthropic');
    await card(0).waitFor();
    expect(await card(0).locator('[data-testid=model]').inputValue()).toBe('claude-sonnet-4-5');
    expect(await card(0).locator('[data-testid=api-key-env]').inputValue()).toBe('ANTHROPIC_API_KEY');
    expect(await card(0).locator('[data-testid=provider-kind]').inputValue()).toBe('anthropic');
    const known = card(0).locator('[data-testid=model-window][data-model=claude-sonnet-4-5]');
    await known.waitFor();
    expect(await known.innerText()).toMatch(/tokens \(from the built-in table\)/);
    expect(await page.locator('[data-testid=default-provider]').inputValue()).toBe('anthropic');

    await page.selectOption('[data-testid=add-provider]', 'custom');
    await card(1).waitFor();
    expect(await card(1).locator('[data-testid=model]').inputValue()).toBe('');
    await card(1).locator('[data-testid=base-url]').fill('box:8080');
    await card(1).locator('[data-testid=model]').fill('my-odd-model');
    await card(1).locator('[data-testid=other-models]').fill('tiny-b, tiny-c');
    await card(1).locator('[data-testid=api-key]').fill('sk-typed-key-4711');
    const guess = card(1).locator('[data-testid=window-fallback][data-model=my-odd-model]');
    await guess.waitFor();
    expect(await guess.innerText()).toMatch(/^⚠ my-odd-model 128,000 tokens \(a guess: unknown model\)/);
    // the other models' rows follow the field's own render: waited for, not counted at once (a busy machine)
    await expect.poll(() => card(1).locator('[data-testid=window-fallback]').count()).toBe(3);
    await expect
      .poll(() => card(1).locator('[data-testid=window-guess-note]').innerText())
      .toContain('my-odd-model, tiny-b, tiny-c are not in the built-in table');
    expect(await card(0).locator('[data-testid=window-guess-note]').count()).toBe(0);
    await page.selectOption('[data-testid=compaction-model]', { label: 'custom / tiny-b' });
    await page.selectOption('[data-testid=default-provider]', 'custom');
    await shots('40-settings-providers');

    // main refuses an address no server answers on; the message sits under that field, nothing is written
    const before = await readFile(file, 'utf8');
    await page.locator('[data-testid=save-settings]').click();
    const urlIssue = card(1).locator('[data-testid=field-issue][data-path="providers.1.baseURL"]');
    await urlIssue.waitFor();
    expect(await urlIssue.innerText()).toBe('use an http:// or https:// address');
    expect(await page.locator('[data-testid=settings-issues]').innerText()).toContain(
      'providers.1.baseURL: use an http:// or https:// address',
    );
    expect(await readFile(file, 'utf8')).toBe(before);
    await urlIssue.scrollIntoViewIfNeeded();
    await shots('40b-settings-field-issue');
    await card(1).locator('[data-testid=base-url]').fill(model.baseURL);

    await page.locator('[data-testid=save-settings]').click();
    await page.locator('[data-testid=save-status]', { hasText: 'Saved' }).waitFor();
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(saved).toEqual({
      defaultProvider: 'custom',
      providers: [
        { id: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
        {
          id: 'custom',
          kind: 'openai-compatible',
          model: 'my-odd-model',
          baseURL: model.baseURL,
          models: ['tiny-b', 'tiny-c'],
        },
      ],
      permissions: [],
      compaction: { provider: 'custom', model: 'tiny-b' },
    });
    expect(await readFile(file, 'utf8')).not.toContain('sk-typed-key-4711');
    expect(await card(1).locator('[data-testid=api-key]').inputValue()).toBe('');
    expect(await card(1).innerText()).toContain('a key is stored; type to replace it');
    expect(await page.content()).not.toContain('sk-typed-key-4711');
    await shots('41-settings-saved');

    await page.reload();
    await page.waitForSelector('[data-testid=project-picker]');
    await openSettings();
    expect(
      await page
        .locator('[data-testid=provider-card]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-provider'))),
    ).toEqual(['anthropic', 'custom']);
    expect(await card(1).locator('[data-testid=model]').inputValue()).toBe('my-odd-model');
    expect(await card(1).locator('[data-testid=other-models]').inputValue()).toBe('tiny-b tiny-c');
    expect(await card(1).innerText()).toContain('a key is stored');
    expect(await page.locator('[data-testid=compaction-model] option:checked').innerText()).toBe('custom / tiny-b');
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await shots('41b-settings-top');
    expect(ui.errors).toEqual([]);
  });

  test('a deny rule added in Settings applies at the next tool call', async () => {
    const root = join(ui.app.temp, 'rule-proj');
    await mkdir(root, { recursive: true });
    await page.locator('button.brand').click();
    await page.fill('[data-testid=project-path]', root);
    await page.click('[data-testid=open-project]');
    await page.click('[data-testid=new-session]');

    await openSettings();
    await page.locator('[data-testid=add-rule]').click();
    const rule = page.locator('[data-testid=rule-row]').last();
    await rule.locator('[data-testid=rule-pattern]').fill('echo');
    await rule.locator('[data-testid=rule-action]').selectOption('deny');
    await page.locator('[data-testid=save-settings]').click();
    await page.locator('[data-testid=save-status]', { hasText: 'Saved' }).waitFor();
    await shots('42-settings-rule');
    await page.getByRole('button', { name: 'Back' }).click();

    model.queue.push(
      { tool: 'bash', args: { command: 'echo hello', description: 'say hello' } },
      { chunks: ['Refused by your rule, as expected.'] },
    );
    const before = model.bodies.length;
    await page.fill('[data-testid=composer]', 'say hello');
    await page.press('[data-testid=composer]', 'Enter');
    await page.locator('text=Refused by your rule, as expected.').waitFor({ timeout: 30_000 });
    expect(model.bodies.length - before).toBe(2);
    const answered = model.bodies[before + 1]?.messages?.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(answered).toEqual([
      'Error (permission_denied): The user did not allow: echo hello\n' +
        'The user said: A configured rule denies bash for echo hello (the rule "echo" denies echo hello).',
    ]);
    expect(await page.locator('[data-testid=permission]').count()).toBe(0);
    expect(ui.errors).toEqual([]);
  });

  test('a hand edit while the form holds edits shows the stale notice; Reload shows the file', async () => {
    await openSettings();
    await card(0).locator('[data-testid=model]').fill('claude-edited-in-form');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('"permissions"', '"webfetch": { "allowHosts": ["box.local"] },\n  "permissions"'),
    );
    const notice = page.locator('[data-testid=settings-stale]');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.innerText()).toContain('settings.json was changed on disk');
    expect(await page.locator('[data-testid=save-settings]').isDisabled()).toBe(true);
    // Next to the disabled Save: why it is off, and the way out.
    const why = page.locator('.save-bar [data-testid=save-blocked]');
    expect(await why.innerText()).toContain('settings.json changed on disk');
    expect(await page.locator('[data-testid=save-settings]').getAttribute('aria-describedby')).toBe('save-blocked-why');
    expect(await why.locator('[data-testid=settings-reload-bar]').count()).toBe(1);
    await shots('43-settings-stale');
    expect(await readFile(file, 'utf8')).toContain('box.local');

    await page.locator('[data-testid=settings-reload]').click();
    await notice.waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=save-blocked]').count()).toBe(0);
    expect(await card(0).locator('[data-testid=model]').inputValue()).toBe('claude-sonnet-4-5');
    expect(await page.locator('[data-testid=save-settings]').isDisabled()).toBe(false);

    // no edits in the form: it follows the file and says so
    await writeFile(file, (await readFile(file, 'utf8')).replace('"tiny-c"', '"tiny-d"'));
    await page.locator('[data-testid=settings-followed]').waitFor({ timeout: 30_000 });
    expect(await card(1).locator('[data-testid=other-models]').inputValue()).toBe('tiny-b tiny-d');
    expect(ui.errors).toEqual([]);
  });

  test('language servers, MCP servers and trusted folders are added, edited and removed', async () => {
    await openSettings();
    await page.locator('[data-testid=lsp-builtin][data-id=pyright]').uncheck();
    await page.locator('[data-testid=add-lsp]').click();
    const lsp = page.locator('[data-testid=lsp-server]').last();
    await lsp.locator('[data-testid=lsp-id]').fill('gopls');
    await lsp.locator('[data-testid=lsp-command]').fill('gopls serve -rpc.trace');
    await lsp.locator('[data-testid=lsp-extensions]').fill('.go, .mod');
    await page.locator('[data-testid=add-mcp]').click();
    await page.locator('[data-testid=add-mcp]').click();
    const first = page.locator('[data-testid=mcp-entry]').first();
    await first.locator('[data-testid=mcp-name]').fill('github');
    // a command that does not exist: the server fails to start, nothing runs and nothing reaches a network
    const absent = join(ui.app.temp, 'no-such-mcp-server');
    await first.locator('[data-testid=mcp-command]').fill(`${absent} --stdio -v`);
    const second = page.locator('[data-testid=mcp-entry]').nth(1);
    await second.locator('[data-testid=mcp-type]').selectOption('http');
    await second.locator('[data-testid=mcp-url]').fill('http://127.0.0.1:9/mcp');
    await second.locator('[data-testid=mcp-enabled]').uncheck();
    await page.locator('[data-testid=add-rule]').click();
    await page.locator('[data-testid=rule-row]').last().locator('[data-testid=rule-pattern]').fill('git status');
    await page.locator('[data-testid=rule-row]').last().locator('[data-testid=rule-action]').selectOption('allow');
    await page.locator('[data-testid=rule-row]').first().locator('[data-testid=remove-rule]').click();
    const folder = join(ui.app.temp, 'trusted-by-path');
    await mkdir(folder, { recursive: true });
    await page.locator('[data-testid=trust-path]').fill(folder);
    await page.locator('[data-testid=trust-add]').click();
    await page.locator('[data-testid=trusted-folder]', { hasText: 'trusted-by-path' }).waitFor();
    await shots('44-settings-lists');

    await page.locator('[data-testid=save-settings]').click();
    await page.locator('[data-testid=save-status]', { hasText: 'Saved' }).waitFor();
    const saved = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(saved['permissions']).toEqual([{ permission: 'bash', pattern: 'git status', action: 'allow' }]);
    expect(saved['lsp']).toEqual({
      disabled: ['pyright'],
      servers: [
        { id: 'gopls', command: ['gopls', 'serve', '-rpc.trace'], extensions: ['.go', '.mod'], rootMarkers: [] },
      ],
    });
    expect(saved['mcp']).toEqual({
      servers: {
        github: { command: absent, args: ['--stdio', '-v'], env: {} },
        'server-2': { type: 'http', url: 'http://127.0.0.1:9/mcp', enabled: false, headers: {} },
      },
    });
    expect(saved['webfetch']).toEqual({ allowHosts: ['box.local'] });

    // removed again: the server and the rule go, the file says so
    await page.locator('[data-testid=mcp-entry]').nth(1).locator('[data-testid=remove-mcp]').click();
    await page.locator('[data-testid=remove-lsp]').click();
    await page.locator('[data-testid=save-settings]').click();
    await page.locator('[data-testid=save-status]', { hasText: 'Saved' }).waitFor();
    const after = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(after['mcp']).toEqual({ servers: { github: { command: absent, args: ['--stdio', '-v'], env: {} } } });
    expect(after['lsp']).toEqual({ disabled: ['pyright'], servers: [] });
    await page
      .locator('[data-testid=trusted-folder]', { hasText: 'trusted-by-path' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.locator('[data-testid=trusted-folder]', { hasText: 'trusted-by-path' }).waitFor({ state: 'detached' });
    expect(ui.errors).toEqual([]);
  });
});
