/**
 * Contract shapes of the Settings screen (DESIGN §6): what `settings.get` answers (the settings as the file holds
 * them, where each provider's key comes from, each model's context window and where that figure came from, a
 * version of the file for the stale rule), what `settings.save` takes, and the provider presets.
 *
 * The settings' CONTENT rules — which values are valid, defaults, refinements — are main's one zod schema
 * (src/main/agent/settings/schema.ts); this file gives the shapes their structure so the renderer is typed. A
 * compile-time check in src/main/host/services-settings.ts keeps the two in agreement (main's `Settings` must be a
 * `SettingsDoc`). `settings.save` therefore takes the document as a JSON object and main validates it, answering
 * `invalid_input` with one issue per bad field (`data.issues: [{ path: 'providers.1.baseURL', message }]`, the same
 * shape the router uses), so the screen shows each message on its field.
 */
import { z } from 'zod';

/** The kinds of model provider: OpenAI-compatible servers (Ollama, LM Studio, vLLM…), and the vendors' own APIs. */
export const ProviderKindSchema = z.enum(['openai-compatible', 'anthropic', 'openai']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

/** A preset a provider is added from: its suggested id, kind, base URL, default model and key variable. */
export interface ProviderPreset {
  label: string;
  id: string;
  kind: ProviderKind;
  /** '' for the vendors' own APIs (their client knows the address). */
  baseURL: string;
  /** The model the preset fills in ('' for a server whose models only the user knows). */
  model: string;
  /** The environment variable the key is read from when none is stored in the app. */
  apiKeyEnv?: string;
  needsKey: boolean;
}

/** The presets (DESIGN §6), in the order the "Add provider" menu lists them. */
export const PROVIDER_PRESETS = {
  ollama: {
    label: 'Ollama (local)',
    id: 'ollama',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5-coder:7b',
    needsKey: false,
  },
  lmstudio: {
    label: 'LM Studio (local)',
    id: 'lmstudio',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:1234/v1',
    model: 'local-model',
    needsKey: false,
  },
  custom: {
    label: 'OpenAI-compatible server',
    id: 'custom',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:8080/v1',
    model: '',
    needsKey: false,
  },
  openai: {
    label: 'OpenAI',
    id: 'openai',
    kind: 'openai',
    baseURL: '',
    model: 'gpt-5-mini',
    apiKeyEnv: 'OPENAI_API_KEY',
    needsKey: true,
  },
  anthropic: {
    label: 'Anthropic',
    id: 'anthropic',
    kind: 'anthropic',
    baseURL: '',
    model: 'claude-sonnet-4-5',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    needsKey: true,
  },
} as const satisfies Record<string, ProviderPreset>;
export type PresetId = keyof typeof PROVIDER_PRESETS;

/**
 * settings.json exists but cannot be used (not JSON, or not settings): shown plainly on the home and settings
 * screens; Save refuses to overwrite the file until the user fixes it or chooses "Reset to defaults".
 */
export const SettingsLoadErrorSchema = z.object({
  /** Absolute path of the file. */
  file: z.string(),
  /** e.g. "settings.json is not valid JSON at line 3, column 5 (…)". */
  message: z.string(),
  hint: z.string(),
  /** 1-based line and column of a JSON syntax error, when known. */
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type SettingsLoadError = z.infer<typeof SettingsLoadErrorSchema>;

const num = z.number();

/** A model of a provider's list: its id, or the id with its own window (tokens) and output reserve. */
export const ModelDocSchema = z.union([
  z.string(),
  z.object({ id: z.string(), contextWindow: num.optional(), outputReserve: num.optional() }).loose(),
]);
export type ModelDoc = z.infer<typeof ModelDocSchema>;

/** One provider as settings.json holds it (main's ProviderSettingsSchema decides what is valid). */
export const ProviderDocSchema = z
  .object({
    id: z.string(),
    kind: ProviderKindSchema,
    baseURL: z.string().optional(),
    model: z.string(),
    models: z.array(ModelDocSchema).optional(),
    apiKeyEnv: z.string().optional(),
    contextWindow: num.optional(),
    outputReserve: num.optional(),
  })
  .loose();
export type ProviderDoc = z.infer<typeof ProviderDocSchema>;

/** One permission rule (main's PermissionRuleSchema). */
export const RuleDocSchema = z.object({
  permission: z.string(),
  tool: z.string().optional(),
  pattern: z.string(),
  action: z.enum(['allow', 'ask', 'deny']),
});
export type RuleDoc = z.infer<typeof RuleDocSchema>;

/** A language server the user added (main's lsp/servers.ts userServerSchema). */
export const LspServerDocSchema = z
  .object({
    id: z.string(),
    command: z.array(z.string()),
    extensions: z.array(z.string()),
    languageId: z.string().optional(),
    rootMarkers: z.array(z.string()).optional(),
  })
  .loose();
export type LspServerDoc = z.infer<typeof LspServerDocSchema>;

/** An MCP server of the user's (main's reach/mcp/config.ts mcpEntrySchema): stdio or HTTP. */
export const McpEntryDocSchema = z
  .object({
    type: z.enum(['stdio', 'http', 'sse']).optional(),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    enabled: z.boolean().optional(),
    disabledTools: z.array(z.string()).optional(),
  })
  .loose();
export type McpEntryDoc = z.infer<typeof McpEntryDocSchema>;

/** The settings document (settings.json as main read it); keys the screen does not edit pass through. */
export const SettingsDocSchema = z
  .object({
    defaultProvider: z.string(),
    providers: z.array(ProviderDocSchema),
    permissions: z.array(RuleDocSchema),
    lsp: z
      .object({ disabled: z.array(z.string()).optional(), servers: z.array(LspServerDocSchema).optional() })
      .loose()
      .optional(),
    mcp: z
      .object({ servers: z.record(z.string(), McpEntryDocSchema).optional() })
      .loose()
      .optional(),
    /** The model that writes compaction summaries (default: the session's own model). */
    compaction: z.object({ provider: z.string(), model: z.string().optional() }).optional(),
  })
  .loose();
export type SettingsDoc = z.infer<typeof SettingsDocSchema>;

/** A model's context window as the compaction trigger uses it, and where the figure came from. */
export const ModelWindowSchema = z.object({
  /** Index of the provider in `settings.providers`. */
  provider: z.number().int(),
  model: z.string(),
  /** Tokens. */
  window: z.number(),
  outputReserve: z.number(),
  /** Estimated request size (tokens) at which the history is compacted: window − max(reserve, 20,000). */
  trigger: z.number(),
  /** settings: the entry names it; catalog: the known figure for this model; fallback: a guess to correct. */
  source: z.enum(['settings', 'catalog', 'fallback']),
});
export type ModelWindow = z.infer<typeof ModelWindowSchema>;

/** Where one provider's key comes from now: stored in the app, the environment variable it names, or nowhere. */
export const KeySourceSchema = z.object({
  source: z.enum(['stored', 'environment', 'none']),
  /** The variable its `apiKeyEnv` names, when it names one. */
  env: z.string().optional(),
});

/** Settings as the renderer sees them. API keys never travel back: only where each provider's key comes from. */
export const SettingsViewSchema = z.object({
  /** The file's settings (the defaults when there is no file yet); null when the file cannot be used. */
  settings: SettingsDocSchema.nullable(),
  /** The file's version (sha256 of its bytes, or 'absent'): a save names it, and is `stale` when the file moved on. */
  version: z.string(),
  /** False before the first save (no settings.json: the first-run state). */
  exists: z.boolean(),
  /** Per provider id. */
  keys: z.record(z.string(), KeySourceSchema),
  /** Where keys are kept: the OS secret store, memory only (the UI warns), or memory in the web host. */
  keyStorage: z.enum(['os-secret-store', 'unprotected', 'environment']),
  /** Every model of every provider, with its window. */
  windows: z.array(ModelWindowSchema),
  /** Why the compaction model would not be used now (its provider is gone, or has no key); absent when fine. */
  compactionProblem: z.string().optional(),
  /** The built-in language servers, which `lsp.disabled` turns off by id. */
  lspBuiltins: z.array(z.object({ id: z.string(), extensions: z.array(z.string()) })),
  /** Present when settings.json cannot be read: `settings` is then null, never the defaults dressed as the user's. */
  loadError: SettingsLoadErrorSchema.optional(),
  /** Present after "Reset to defaults": where the old file was kept (settings.json.bak-<timestamp>). */
  backup: z.string().optional(),
});
export type SettingsView = z.infer<typeof SettingsViewSchema>;

const keyText = z.string().min(1).max(500);

/**
 * `schema` whose JSON text is at most `maxBytes` bytes (UTF-8), refused as invalid_input beyond: free-form parts of
 * the settings calls (a document main validates itself) stay inside one WebSocket frame (shared/limits.ts). The bound
 * is also recorded in zod's global registry as `maxJsonBytes`, where the frame-size test (host/web-limits.test.ts)
 * reads it.
 */
export function jsonCapped<T extends z.ZodType>(schema: T, maxBytes: number): T {
  return schema
    .refine((v) => new TextEncoder().encode(JSON.stringify(v) ?? '').length <= maxBytes, {
      message: `over ${maxBytes} bytes of JSON`,
    })
    .meta({ maxJsonBytes: maxBytes }) as unknown as T;
}

/** Largest settings document a save carries, bytes of JSON (settings.json itself is read up to the same size). */
export const SETTINGS_DOC_MAX_BYTES = 1024 * 1024;

/**
 * A save from the screen: the whole document (validated in main), the version it was loaded at (`base`; a save
 * over a file that changed since is `stale`, with the file's new view in `data.view`), and key changes per
 * provider id (a typed key, or null to remove the stored one).
 */
export const SettingsSaveSchema = z.object({
  settings: jsonCapped(z.record(z.string(), z.unknown()), SETTINGS_DOC_MAX_BYTES),
  base: z.string().min(1).max(100),
  keys: jsonCapped(z.record(z.string().max(200), keyText.nullable()), 256 * 1024).optional(),
});
export type SettingsSave = z.infer<typeof SettingsSaveSchema>;

/** Try one provider as the form describes it (saved or not), with a typed key or its own stored one. */
export const SettingsTestSchema = z.object({
  provider: jsonCapped(z.record(z.string(), z.unknown()), 64 * 1024),
  /** The model to try (default: the provider's `model`). */
  model: z.string().min(1).max(200).optional(),
  apiKey: keyText.optional(),
});

/** The windows of the form's providers as they are typed (before a save). */
export const SettingsWindowsSchema = z.object({ providers: z.array(jsonCapped(z.unknown(), 64 * 1024)).max(100) });

/** Pushed when settings.json changed on disk (a hand edit, another window, the app's own save): its new version. */
export const SettingsChangedSchema = z.object({ type: z.literal('settings.changed'), version: z.string() });
