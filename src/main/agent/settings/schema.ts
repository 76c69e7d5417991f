/**
 * Settings: a JSON file in the app's data folder (`settings.json`) holding providers, the default provider,
 * permission rules and language-server settings. This file is its one definition — the zod schema, and the types
 * inferred from it. API keys are NEVER stored here: a provider names the environment variable that holds its key
 * (the desktop app keeps keys in the OS secret store and hands them to the provider client in the same way).
 *
 * The file is read as JSON with comments and trailing commas (as VS Code reads its settings; read.ts), written
 * keeping them where it can (save.ts), and followed while the service runs (live.ts). The optional `lsp` key is the
 * language-server settings of src/main/lsp/servers.ts (servers turned off, servers added); a file without it is
 * valid.
 */
import { z } from 'zod';
import { lspSettingsSchema } from '../../lsp/servers';
import { PermissionRuleSchema } from '../permission/rules';

/** One model provider: how to reach it (`kind`, `baseURL`), which model, and where its key is (`apiKeyEnv`). */
export const ProviderSettingsSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['openai-compatible', 'anthropic', 'openai']),
  baseURL: z.string().url().optional(),
  model: z.string().min(1),
  /** Name of the environment variable holding the key (keys are never stored in the settings file). */
  apiKeyEnv: z.string().optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const SettingsSchema = z.object({
  defaultProvider: z.string(),
  providers: z.array(ProviderSettingsSchema),
  permissions: z.array(PermissionRuleSchema),
  /** Language servers turned off or added (src/main/lsp/servers.ts); absent → the built-ins. */
  lsp: lspSettingsSchema.optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** "at lsp.servers.0.command: <zod's message>; …" for every issue, so the message names the fields to fix. */
export function settingsIssues(error: z.ZodError): string {
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
