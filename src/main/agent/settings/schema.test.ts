/**
 * Backward compatibility of the one settings schema (schema.ts): every settings.json that was valid before the
 * Settings screen grew providers with model lists, an optional `permissions` and a compaction model must stay
 * valid and read as the same settings. "Before" is the schema as it stood (frozen below, over the same sub-schemas,
 * which did not change). Checked on real files (README's example, the files the tests and e2e start from, a file
 * with every key) read from disk by the one reader, and on generated documents (fast-check): for a document
 * without the new keys, the old and new schema accept exactly the same documents and read them the same. Then the
 * new keys: `permissions` left out is [], `models` and `compaction` are read, and a bad value names its field.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lspSettingsSchema } from '../../lsp/servers';
import { mcpSettingsSchema } from '../../reach/mcp/config';
import { webfetchSettingsSchema } from '../../reach/webfetch/settings';
import { modeSettingSchema } from '../modes';
import { PermissionRuleSchema } from '../permission/rules';
import { loadSettings } from './read';
import { DEFAULT_SETTINGS, SettingsSchema, settingsIssueList } from './schema';

/** The schema before this change, as it stood on main (providers with one model; permissions required). */
const BEFORE = z.object({
  defaultProvider: z.string(),
  providers: z.array(
    z.object({
      id: z.string().min(1),
      kind: z.enum(['openai-compatible', 'anthropic', 'openai']),
      baseURL: z.string().url().optional(),
      model: z.string().min(1),
      apiKeyEnv: z.string().optional(),
      contextWindow: z.number().int().min(1_000).optional(),
      outputReserve: z.number().int().min(0).optional(),
    }),
  ),
  permissions: z.array(PermissionRuleSchema),
  lsp: lspSettingsSchema.optional(),
  webfetch: webfetchSettingsSchema.optional(),
  mcp: mcpSettingsSchema.optional(),
  limits: z
    .object({
      maxToolCallsPerTurn: z.number().int().positive().optional(),
      maxTokensPerTurn: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  modes: z
    .array(modeSettingSchema)
    .max(20)
    .refine((ms) => new Set(ms.map((m) => m.name)).size === ms.length, 'two modes share a name')
    .optional(),
});

/** Real settings files as users and this repository's tests write them (JSON with comments where users do). */
const FILES: Record<string, string> = {
  readme: `{
  "defaultProvider": "ollama",
  "providers": [
    { "id": "ollama", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:11434/v1", "model": "qwen2.5-coder:7b" },
    { "id": "anthropic", "kind": "anthropic", "model": "claude-sonnet-4-5", "apiKeyEnv": "ANTHROPIC_API_KEY" },
    { "id": "vllm", "kind": "openai-compatible", "baseURL": "http://127.0.0.1:8000/v1", "model": "my-model", "contextWindow": 65536 }
  ],
  "permissions": [
    { "permission": "edit", "pattern": "**", "action": "ask" },
    { "permission": "bash", "pattern": "git status*", "action": "allow" },
    { "permission": "read", "pattern": "**/.env*", "action": "deny" }
  ]
}
`,
  defaults: JSON.stringify(DEFAULT_SETTINGS, null, 2),
  e2e: JSON.stringify({
    defaultProvider: 'first',
    providers: [
      { id: 'first', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'model-a' },
      { id: 'second', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'model-b' },
    ],
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  }),
  everything: `// every key a file could hold before
{
  "defaultProvider": "box",
  "providers": [
    { "id": "box", "kind": "openai-compatible", "baseURL": "http://10.0.0.2:8080/v1", "model": "coder", "apiKeyEnv": "BOX_KEY", "contextWindow": 32768, "outputReserve": 4000 },
    { "id": "box", "kind": "openai", "model": "twice-the-same-id" }, // two entries with one id loaded before
  ],
  "permissions": [{ "permission": "bash", "tool": "bash", "pattern": "npm test", "action": "allow" }],
  "lsp": { "disabled": ["yaml"], "servers": [{ "id": "deno", "command": ["deno", "lsp"], "extensions": [".ts"] }] },
  "webfetch": { "allowHosts": ["localhost:3000"] },
  "mcp": { "servers": { "notes": { "command": "node", "args": ["server.mjs"], "env": { "A": "1" } }, "web": { "type": "http", "url": "http://127.0.0.1:7000/mcp" } } },
  "limits": { "maxToolCallsPerTurn": 50 },
  "modes": [{ "name": "review", "tools": ["read", "grep"], "instructions": "Only read." }],
  "notes": "a key Landfall does not know",
}
`,
  'default names no provider': '{ "defaultProvider": "gone", "providers": [], "permissions": [] }',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'landfall-schema-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings valid before stay valid and mean the same', () => {
  it.each(Object.entries(FILES))('the %s file', async (name, text) => {
    const file = join(dir, `${name.replace(/\W/g, '-')}.json`);
    await writeFile(file, text);
    const loaded = await loadSettings(file);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const { parse } = await import('jsonc-parser');
    expect(loaded.value).toEqual(BEFORE.parse(parse(text)));
  });

  it('property: old and new accept the same documents without the new keys, and read them the same', () => {
    let attempts = 0;
    let held = 0;
    let valid = 0;
    fc.assert(
      fc.property(documentArb(), (doc) => {
        attempts++;
        const before = BEFORE.safeParse(doc);
        const after = SettingsSchema.safeParse(doc);
        expect(after.success).toBe(before.success);
        if (before.success && after.success) {
          valid++;
          expect(after.data).toEqual(before.data);
        }
        held++;
      }),
      { numRuns: 500 },
    );
    console.log(`settings backward compatibility: attempts ${attempts} / held ${held} (${valid} valid documents)`);
    // the generator must make valid documents too (about 8% of them; 2% is far below any run seen)
    expect(valid).toBeGreaterThan(attempts / 50);
    expect(held).toBe(attempts);
  });
});

describe('what the new schema adds', () => {
  it('permissions may be left out: read as no rules', async () => {
    const file = join(dir, 'no-permissions.json');
    await writeFile(file, '{ "defaultProvider": "a", "providers": [] }');
    expect(await loadSettings(file)).toEqual({
      ok: true,
      value: { defaultProvider: 'a', providers: [], permissions: [] },
    });
  });

  it('a provider lists its models (ids, or ids with their own window); a compaction model is named', () => {
    const doc = {
      defaultProvider: 'a',
      providers: [
        {
          id: 'a',
          kind: 'openai-compatible',
          baseURL: 'http://127.0.0.1:1/v1',
          model: 'big',
          models: ['big', { id: 'small', contextWindow: 32_768 }],
        },
      ],
      compaction: { provider: 'a', model: 'small' },
    };
    expect(SettingsSchema.parse(doc)).toEqual({ ...doc, permissions: [] });
  });

  it('a bad value names its field', () => {
    const r = SettingsSchema.safeParse({
      defaultProvider: 'a',
      providers: [{ id: 'a', kind: 'openai', model: 'm', models: ['m', { id: 'x', contextWindow: 12 }] }],
      compaction: { provider: 'a', typo: 1 },
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(settingsIssueList(r.error).map((i) => i.path)).toEqual(['providers.0.models.1.contextWindow', 'compaction']);
  });
});

/** Mostly `good`, sometimes `bad`: a document is then valid often enough, and every field is wrong now and then. */
function mostly<T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>): fc.Arbitrary<T | U> {
  return fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });
}

/** Documents shaped like settings, valid or not in every field, without the new keys, sometimes with unknown ones. */
function documentArb(): fc.Arbitrary<Record<string, unknown>> {
  const word = fc.constantFrom('a', 'ollama', 'my box', 'gpt-5', 'qwen2.5-coder:7b');
  const maybeEmpty = mostly(word, fc.constant(''));
  const url = mostly(fc.constantFrom('http://127.0.0.1:11434/v1', 'https://api.example.com'), fc.constant('not a url'));
  const count = mostly(
    fc.integer({ min: 1_000, max: 300_000 }),
    fc.oneof(fc.integer({ min: -5, max: 999 }), fc.double(), fc.constant('4096')),
  );
  const provider = fc.record(
    {
      id: maybeEmpty,
      kind: mostly(fc.constantFrom('openai-compatible', 'anthropic', 'openai'), fc.constant('gemini')),
      baseURL: url,
      model: maybeEmpty,
      apiKeyEnv: mostly(word, fc.constant(3)),
      contextWindow: count,
      outputReserve: count,
      extra: word,
    },
    { requiredKeys: ['id', 'kind', 'model'] },
  );
  const rule = fc.record(
    {
      permission: mostly(fc.constantFrom('read', 'edit', 'bash', 'webfetch', 'mcp', '*'), fc.constant('write')),
      tool: word,
      pattern: maybeEmpty,
      action: mostly(fc.constantFrom('allow', 'ask', 'deny'), fc.constant('maybe')),
    },
    { requiredKeys: ['permission', 'pattern', 'action'] },
  );
  const lsp = fc.record(
    {
      disabled: fc.array(word, { maxLength: 2 }),
      servers: fc.array(
        fc.record({
          id: maybeEmpty,
          command: fc.array(maybeEmpty, { minLength: 1, maxLength: 2 }),
          extensions: fc.array(mostly(fc.constantFrom('.ts', '.py'), fc.constant('ts')), {
            minLength: 1,
            maxLength: 2,
          }),
        }),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  );
  const mcp = fc.record({
    servers: fc.dictionary(
      mostly(fc.constantFrom('notes', 'web'), fc.constant('bad name')),
      fc.oneof(
        fc.record({ command: maybeEmpty, args: fc.array(word, { maxLength: 2 }) }, { requiredKeys: ['command'] }),
        fc.record({ type: mostly(fc.constantFrom('http', 'sse'), fc.constant('ftp')), url }),
      ),
      { maxKeys: 2 },
    ),
  });
  const mode = fc.record({
    name: mostly(fc.constantFrom('review', 'docs'), fc.constantFrom('plan', 'Bad')),
    tools: fc.array(word, { maxLength: 2 }),
    instructions: word,
  });
  return fc.record(
    {
      defaultProvider: mostly(word, fc.constant(1)),
      providers: fc.array(provider, { maxLength: 3 }),
      permissions: fc.array(rule, { maxLength: 3 }),
      lsp,
      webfetch: fc.record({ allowHosts: fc.array(word, { maxLength: 2 }) }),
      mcp,
      limits: fc.record({ maxToolCallsPerTurn: count, maxTokensPerTurn: count, other: count }, { requiredKeys: [] }),
      modes: fc.array(mode, { maxLength: 2 }),
      notes: word,
    },
    { requiredKeys: ['defaultProvider', 'providers', 'permissions'] },
  );
}
