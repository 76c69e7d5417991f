/**
 * Settings: a JSON file in the app's data folder (`settings.json`) holding providers, the default provider,
 * permission rules, language-server and MCP settings, the compaction model. This file is its one definition — the
 * zod schema, and the types inferred from it. API keys are NEVER stored here: a provider names the environment
 * variable that holds its key (the desktop app keeps keys in the OS secret store and hands them to the provider
 * client in the same way).
 *
 * The file is read as JSON with comments and trailing commas (as VS Code reads its settings; read.ts), written
 * keeping them where it can (save.ts), and followed while the service runs (live.ts). Optional keys: `lsp` (the
 * language-server settings of src/main/lsp/servers.ts), `mcp`, `webfetch`, `limits`, `modes`, `compaction`, and
 * `permissions` (absent: no rules, the built-in defaults decide).
 *
 * Backward compatibility (settings.test.ts holds it): every file valid before a change stays valid and reads as the
 * same settings. So new keys are optional, and rules that need two keys at once (a provider id used twice, a
 * default naming no provider) are not refinements here — they are checked when the Settings screen saves
 * (form-rules.ts), so a hand-written file that breaks one still loads.
 */
import { z } from 'zod';
import { modeSettingSchema } from '../modes';
import { lspSettingsSchema } from '../../lsp/servers';
import { mcpSettingsSchema } from '../../reach/mcp/config';
import { webfetchSettingsSchema } from '../../reach/webfetch/settings';
import { PermissionRuleSchema } from '../permission/rules';
import { PROVIDER_PRESETS } from '../../../shared/settings-schemas';

/**
 * A model of a provider's list (what the chat's model picker offers): its id, or the id with the model's own
 * context window and output reserve (tokens), which win over the provider's (context/windows.ts is the rest).
 */
export const ModelEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      id: z.string().min(1),
      contextWindow: z.number().int().min(1_000).optional(),
      outputReserve: z.number().int().min(0).optional(),
    })
    .strict(),
]);
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

/**
 * One model provider: how to reach it (`kind`, `baseURL`), its default model (`model`) and the other models the
 * picker offers (`models`), where its key is (`apiKeyEnv`), and its window.
 */
export const ProviderSettingsSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['openai-compatible', 'anthropic', 'openai']),
  baseURL: z.string().url().optional(),
  /** The default model: a new session and a provider chosen without a model use it. */
  model: z.string().min(1),
  /** Every model the chat's picker offers for this provider (`model` is offered too, first, when not listed). */
  models: z.array(ModelEntrySchema).max(100).optional(),
  /** Name of the environment variable holding the key (keys are never stored in the settings file). */
  apiKeyEnv: z.string().optional(),
  /** The window of this provider's models (tokens); absent: the catalog's default (agent/context/windows.ts). */
  contextWindow: z.number().int().min(1_000).optional(),
  /** Tokens kept free for the reply (default 16,000); compaction runs at window − max(this, 20,000). */
  outputReserve: z.number().int().min(0).optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** The model that writes compaction summaries: a provider of `providers` and one of its models (default: its own). */
export const CompactionSettingsSchema = z
  .object({ provider: z.string().min(1), model: z.string().min(1).optional() })
  .strict();

export const SettingsSchema = z.object({
  defaultProvider: z.string(),
  providers: z.array(ProviderSettingsSchema),
  /** Permission rules (agent/permission/rules.ts); absent: none, the defaults decide. */
  permissions: z.array(PermissionRuleSchema).default([]),
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
  /** The model that writes compaction summaries (absent: the session's own model; agent/compaction-model.ts). */
  compaction: CompactionSettingsSchema.optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** One issue of a settings check: the field's path (`providers.1.baseURL`) and what is wrong with it. */
export interface SettingsIssue {
  path: string;
  message: string;
}

/** Every issue of `error` with its field path (`(top level)` for the document itself). */
export function settingsIssueList(error: z.ZodError): SettingsIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(top level)', message: i.message }));
}

/** "at lsp.servers.0.command: <zod's message>; …" for every issue, so the message names the fields to fix. */
export function settingsIssues(error: z.ZodError): string {
  return `at ${settingsIssueList(error)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ')}`;
}

/** A provider entry made from a preset (shared/settings-schemas.ts PROVIDER_PRESETS). */
function fromPreset(p: (typeof PROVIDER_PRESETS)[keyof typeof PROVIDER_PRESETS]): ProviderSettings {
  return {
    id: p.id,
    kind: p.kind,
    model: p.model,
    ...(p.baseURL ? { baseURL: p.baseURL } : {}),
    ...('apiKeyEnv' in p ? { apiKeyEnv: p.apiKeyEnv } : {}),
  };
}

/** The settings with no file: the presets with a model (Ollama, LM Studio, OpenAI, Anthropic), Ollama first. */
export const DEFAULT_SETTINGS: Settings = {
  defaultProvider: 'ollama',
  providers: [
    PROVIDER_PRESETS.ollama,
    PROVIDER_PRESETS.lmstudio,
    PROVIDER_PRESETS.openai,
    PROVIDER_PRESETS.anthropic,
  ].map(fromPreset),
  permissions: [],
};
