/**
 * Settings: a JSON file in the app's data folder (`settings.json`) holding providers, the default provider and
 * permission rules. API keys are NEVER stored here: a provider names the environment variable that holds its key
 * (the desktop app stores keys with safeStorage and passes them in the same way).
 *
 * A missing file gives the defaults (presets for Ollama and LM Studio, OpenAI, Anthropic); a malformed file is a
 * typed `invalid_input` error naming the bad fields (e.g. `lsp.servers.0.command`) and is left untouched.
 * The optional `lsp` key is the language-server settings of src/main/lsp/servers.ts (servers turned off, servers
 * added); a file without it is valid.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { writeFileAtomic } from '../fs/atomic-write';
import { lspSettingsSchema } from '../lsp/servers';
import type { Settings } from './service-types';

const providerSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['openai-compatible', 'anthropic', 'openai']),
  baseURL: z.string().url().optional(),
  model: z.string().min(1),
  apiKeyEnv: z.string().optional(),
  /** The model's context window (tokens); absent: the catalog's default (agent/context/windows.ts). */
  contextWindow: z.number().int().min(1_000).optional(),
  /** Tokens kept free for the reply (default 16,000); compaction runs at window − max(this, 20,000). */
  outputReserve: z.number().int().min(0).optional(),
});

const ruleSchema = z.object({
  permission: z.enum(['read', 'edit', 'bash', 'external_directory', 'git_dir', '*']),
  tool: z.string().optional(),
  pattern: z.string().min(1),
  action: z.enum(['allow', 'ask', 'deny']),
});

export const settingsSchema = z.object({
  defaultProvider: z.string(),
  providers: z.array(providerSchema),
  permissions: z.array(ruleSchema),
  lsp: lspSettingsSchema.optional(),
});

/** "at lsp.servers.0.command: <zod's message>; …" for every issue, so the message names the fields to fix. */
function fieldIssues(error: z.ZodError): string {
  return `at ${error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ')}`;
}

/** Presets: Ollama and LM Studio (local, OpenAI-compatible), OpenAI, Anthropic. */
export const DEFAULT_SETTINGS: Settings = {
  defaultProvider: 'ollama',
  providers: [
    { id: 'ollama', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:7b' },
    { id: 'lmstudio', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:1234/v1', model: 'local-model' },
    { id: 'openai', kind: 'openai', model: 'gpt-5-mini', apiKeyEnv: 'OPENAI_API_KEY' },
    { id: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  ],
  permissions: [],
};

/** Read settings from `file`; defaults when absent. Error `invalid_input` when the file is not valid settings. */
export async function loadSettings(file: string): Promise<Result<Settings>> {
  let raw: string;
  try {
    raw = await fsp.readFile(file, 'utf8');
  } catch {
    return ok(structuredClone(DEFAULT_SETTINGS));
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    return fail(
      'invalid_input',
      `${file} is not valid JSON: ${(e as Error).message}`,
      'Fix the file or delete it to get the defaults back.',
    );
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success)
    return fail(
      'invalid_input',
      `${file} does not hold valid settings ${fieldIssues(parsed.error)}`,
      'Fix the named fields, or delete the file to get the defaults back.',
    );
  return ok(parsed.data);
}

/** Validate and write settings atomically. Error `invalid_input` (nothing written). */
export async function saveSettings(file: string, settings: unknown): Promise<Result<Settings>> {
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success)
    return fail(
      'invalid_input',
      `Settings are not valid ${fieldIssues(parsed.error)}`,
      'Correct the named fields and save again.',
    );
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, Buffer.from(`${JSON.stringify(parsed.data, null, 2)}\n`, 'utf8'));
  return ok(parsed.data);
}
