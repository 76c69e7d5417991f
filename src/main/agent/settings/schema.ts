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
import { modeSettingSchema } from '../modes';
import { lspSettingsSchema } from '../../lsp/servers';
import { mcpSettingsSchema } from '../../reach/mcp/config';
import { webfetchSettingsSchema } from '../../reach/webfetch/settings';
import { PermissionRuleSchema } from '../permission/rules';

/** One model provider: how to reach it (`kind`, `baseURL`), which model, and where its key is (`apiKeyEnv`). */
export const ProviderSettingsSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['openai-compatible', 'anthropic', 'openai']),
  baseURL: z.string().url().optional(),
  model: z.string().min(1),
  /** Name of the environment variable holding the key (keys are never stored in the settings file). */
  apiKeyEnv: z.string().optional(),
  /** The model's context window (tokens); absent: the catalog's default (agent/context/windows.ts). */
  contextWindow: z.number().int().min(1_000).optional(),
  /** Tokens kept free for the reply (default 16,000); compaction runs at window − max(this, 20,000). */
  outputReserve: z.number().int().min(0).optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const SettingsSchema = z.object({
  defaultProvider: z.string(),
  providers: z.array(ProviderSettingsSchema),
  permissions: z.array(PermissionRuleSchema),
  /** Language servers turned off or added (src/main/lsp/servers.ts); absent → the built-ins. */
  lsp: lspSettingsSchema.optional(),
  /** Hosts webfetch may reach although they are local or private (src/main/reach/webfetch/settings.ts). */
  webfetch: webfetchSettingsSchema.optional(),
  /** The user's own MCP servers (src/main/reach/mcp/config.ts). */
  mcp: mcpSettingsSchema.optional(),
  /** Per-turn budgets (agent/loop-guard.ts): tool calls (default 200) and tokens (default: no budget). */
  limits: z
    .object({
      maxToolCallsPerTurn: z.number().int().positive().optional(),
      maxTokensPerTurn: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  /** Modes the user added (agent/modes.ts); the built-in build and plan are always there. */
  modes: z
    .array(modeSettingSchema)
    .max(20)
    .refine((ms) => new Set(ms.map((m) => m.name)).size === ms.length, 'two modes share a name')
    .optional(),
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
