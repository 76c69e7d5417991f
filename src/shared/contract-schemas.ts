/**
 * Zod schemas of the call shapes that cross the renderer ⇄ main boundary (DESIGN §1) beyond the data model
 * (model.ts), permissions (permission-schemas.ts), history (history-schemas.ts) and review (review-schemas.ts):
 * a session's detail, the settings screen's view and input, the app's info. Types are inferred from the schemas.
 */
import { z } from 'zod';
import { MessageWithPartsSchema, SessionSchema } from './model';
import { PermissionAskedSchema } from './permission-schemas';

/**
 * Everything the UI needs to draw a session: the session, its messages with their parts, whether a turn runs,
 * and the permission questions waiting for an answer (kept by the core's gate, so a reloaded window shows them).
 */
export const SessionDetailSchema = z.object({
  session: SessionSchema,
  messages: z.array(MessageWithPartsSchema),
  /** True while a turn runs. */
  busy: z.boolean(),
  /** Permission questions waiting for an answer, oldest first. */
  asks: z.array(PermissionAskedSchema),
});

/**
 * The provider choices the settings screen offers: `ollama`, `lmstudio` and `custom` speak the OpenAI-compatible
 * protocol (presets differ only in their default base URL); `anthropic` and `openai` are the vendors' own APIs.
 */
export const ProviderIdSchema = z.enum(['ollama', 'lmstudio', 'custom', 'anthropic', 'openai']);
export type ProviderId = z.infer<typeof ProviderIdSchema>;

/** Default base URLs of the presets (DESIGN §6). */
export const PROVIDER_PRESETS: Record<ProviderId, { label: string; baseURL: string; needsKey: boolean }> = {
  ollama: { label: 'Ollama (local)', baseURL: 'http://127.0.0.1:11434/v1', needsKey: false },
  lmstudio: { label: 'LM Studio (local)', baseURL: 'http://127.0.0.1:1234/v1', needsKey: false },
  custom: { label: 'OpenAI-compatible server', baseURL: '', needsKey: false },
  anthropic: { label: 'Anthropic', baseURL: '', needsKey: true },
  openai: { label: 'OpenAI', baseURL: '', needsKey: true },
};

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

/** Settings as the renderer sees them: the key itself never travels back, only whether one is stored. */
export const SettingsViewSchema = z.object({
  provider: ProviderIdSchema.nullable(),
  model: z.string(),
  baseURL: z.string(),
  hasKey: z.boolean(),
  /** Where keys are kept: the OS secret store, or nowhere safe (the UI warns). */
  keyStorage: z.enum(['os-secret-store', 'unprotected', 'environment']),
  /** Present when settings.json cannot be read: the fields above are then empty, not defaults. */
  loadError: SettingsLoadErrorSchema.optional(),
  /** Present after "Reset to defaults": where the old file was kept (settings.json.bak-<timestamp>). */
  backup: z.string().optional(),
});

/** A settings change. `apiKey: null` removes the stored key; absent leaves it alone. */
export const SettingsInputSchema = z.object({
  provider: ProviderIdSchema.nullable(),
  model: z.string().max(200),
  baseURL: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2048)]),
  apiKey: z.string().max(500).nullable().optional(),
  /** "Reset to defaults": keep the current settings.json as settings.json.bak-<timestamp>, then start from the defaults. */
  reset: z.boolean().optional(),
});

export const AppInfoSchema = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'web']),
  /** True when a native folder dialog exists (Electron); the web host asks for a typed path instead. */
  nativeDialog: z.boolean(),
  /** True when no provider is configured yet: the first-run screen offers the sample replay. */
  firstRun: z.boolean(),
  /** Present when settings.json exists but cannot be read (the home screen says so instead of "first run"). */
  settingsError: SettingsLoadErrorSchema.optional(),
});

export type AppInfo = z.infer<typeof AppInfoSchema>;
export type SettingsView = z.infer<typeof SettingsViewSchema>;
export type SettingsInput = z.infer<typeof SettingsInputSchema>;
export type SessionDetail = z.infer<typeof SessionDetailSchema>;
