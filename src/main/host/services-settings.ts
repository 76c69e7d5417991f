/**
 * The `settings.*` calls: the Settings screen over settings.json and the key store. The screen gets the file's
 * settings as they are on disk now (it may have been edited by hand while the app runs), the file's version,
 * where each provider's key comes from and each model's window; it saves the whole document back. Main decides
 * everything: the one schema (agent/settings/schema.ts) and the screen's own rules (form-rules.ts) validate it,
 * save.ts writes it (comments and key order kept; `stale` when the file moved on since the screen loaded it), and
 * only then are typed keys stored.
 *
 * Keys: a key typed in the app goes to the platform's SecretStore (keyed by provider id: the OS secret store on the
 * desktop, memory in the web host) and from there straight to the provider client when a model is made
 * (`hostKeyLookup`): never into settings.json, never into process.env, so no child process can inherit it. The
 * key of a provider removed by a save is removed from the store too.
 */
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelWindow, SettingsDoc, SettingsSave, SettingsView } from '../../shared/settings-schemas';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { AgentService } from '../agent/service';
import { compactionProblem } from '../agent/compaction-model';
import { compactionThreshold } from '../agent/context/windows';
import { environmentKey } from '../agent/providers/keys';
import { testConnection } from '../agent/test-connection';
import type { KeyLookup } from '../agent/providers/keys';
import { formIssues } from '../agent/settings/form-rules';
import { modelIds, modelWindow } from '../agent/settings/models';
import { readSettingsFile, type SettingsFileState } from '../agent/settings/read';
import { backupSettingsFile } from '../agent/settings/save';
import { DEFAULT_SETTINGS, SettingsSchema, settingsIssueList } from '../agent/settings/schema';
import type { ModelEntry, ProviderSettings, Settings, SettingsIssue } from '../agent/settings/schema';
import { BUILTIN_SERVERS } from '../lsp/servers';
import type { SecretStore } from './platform';

// The contract's document shape must hold every settings main can read (a compile error here means the shapes in
// src/shared/settings-schemas.ts and agent/settings/schema.ts drifted apart).
type Agrees = Settings extends SettingsDoc ? true : never;
const agrees: Agrees = true;
void agrees;

/**
 * How the app finds a provider's key: the key stored in the app for that provider id (SecretStore) first, else the
 * variable the provider's `apiKeyEnv` names, read from the environment now — per provider, as the command line does.
 */
export function hostKeyLookup(secrets: SecretStore): KeyLookup {
  const fromEnvironment = environmentKey();
  return (provider) => secrets.get(provider.id) ?? fromEnvironment(provider);
}

/** True when no settings file exists yet: the first-run screen shows. */
export function isFirstRun(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'settings.json'));
}

/** Where the core keeps its settings. */
export function settingsFile(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/** Every model of every provider with its window (settings/models.ts) and the compaction trigger it gives. */
export function modelWindows(providers: ProviderSettings[]): ModelWindow[] {
  return providers.flatMap((p, provider) =>
    modelIds(p).map((model) => {
      const spec = modelWindow(p, model);
      return { provider, model, ...spec, trigger: compactionThreshold(spec) };
    }),
  );
}

const LSP_BUILTINS = BUILTIN_SERVERS.map((s) => ({ id: s.id, extensions: Object.keys(s.languages) }));

/**
 * The screen's view of `state` (settings.json as read just now): its settings (the defaults when there is no file),
 * its version, key sources, windows. A file that cannot be used gives `settings: null` and `loadError` — never the
 * defaults dressed as the user's.
 */
export function settingsView(secrets: SecretStore, state: SettingsFileState): SettingsView {
  const base = { version: state.version, exists: state.exists, keyStorage: secrets.kind(), lspBuiltins: LSP_BUILTINS };
  if (state.error) return { ...base, settings: null, keys: {}, windows: [], loadError: state.error };
  const settings = state.settings ?? structuredClone(DEFAULT_SETTINGS);
  const env = environmentKey();
  const keys = Object.fromEntries(
    settings.providers.map((p) => [
      p.id,
      {
        source:
          secrets.get(p.id) !== undefined ? ('stored' as const) : env(p) ? ('environment' as const) : ('none' as const),
        ...(p.apiKeyEnv ? { env: p.apiKeyEnv } : {}),
      },
    ]),
  );
  const problem = compactionProblem(settings, (p) => hostKeyLookup(secrets)(p) !== undefined);
  return {
    ...base,
    settings,
    keys,
    windows: modelWindows(settings.providers),
    ...(problem ? { compactionProblem: problem } : {}),
  };
}

/** The view of settings.json as it is on disk now. */
export async function currentSettingsView(secrets: SecretStore, dataDir: string): Promise<SettingsView> {
  return settingsView(secrets, await readSettingsFile(settingsFile(dataDir)));
}

/** `invalid_input` naming every field in `issues` (data.issues: path + message, the router's shape). */
function invalid(issues: SettingsIssue[]): Result<never> {
  const first = issues[0] as SettingsIssue;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return fail(
    'invalid_input',
    `Not saved: ${first.path}: ${first.message}${more}.`,
    'Correct the named fields and save again.',
    {
      issues,
    },
  );
}

/**
 * Saves the screen's document (`input.settings`) over settings.json, then the typed keys (`input.keys`, per
 * provider id; null removes a stored key), and removes the stored keys of providers the save removed. Answers the
 * file's view after the save. Errors, nothing saved and no key stored: `invalid_input` (data.issues: the schema's
 * and form-rules.ts's; a key for no provider), `stale` (the file is no longer `input.base`; data.view is the file's
 * view now), `conflict` (settings.json cannot be read; it is not overwritten).
 */
export async function saveSettingsForm(
  svc: AgentService,
  secrets: SecretStore,
  dataDir: string,
  input: SettingsSave,
): Promise<Result<SettingsView>> {
  const parsed = SettingsSchema.safeParse(input.settings);
  if (!parsed.success) return invalid(settingsIssueList(parsed.error));
  const next = parsed.data;
  const ids = new Set(next.providers.map((p) => p.id));
  const issues = [
    ...formIssues(next),
    ...Object.keys(input.keys ?? {})
      .filter((id) => !ids.has(id))
      .map((id) => ({ path: `keys.${id}`, message: `no provider is named ${id}` })),
  ];
  if (issues.length > 0) return invalid(issues);
  const before = await readSettingsFile(settingsFile(dataDir));
  const saved = await svc.saveSettings(input.settings, { base: input.base });
  if (!saved.ok) {
    if (saved.error.code !== 'stale') return saved;
    const view = await currentSettingsView(secrets, dataDir);
    return fail(saved.error.code, saved.error.message, saved.error.hint, { view });
  }
  for (const [id, key] of Object.entries(input.keys ?? {})) await secrets.set(id, key);
  for (const gone of (before.settings?.providers ?? []).filter((p) => !ids.has(p.id)))
    if (secrets.get(gone.id) !== undefined) await secrets.set(gone.id, null);
  return ok(await currentSettingsView(secrets, dataDir));
}

/**
 * "Reset to defaults": keeps the current file as settings.json.bak-<time>, and puts the core back on the defaults
 * with no file (the first-run state). The view names the backup (`backup`, absent when there was no file). Error
 * `io_error` when the file cannot be moved aside (then nothing changed).
 */
export async function resetSettings(
  svc: AgentService,
  secrets: SecretStore,
  dataDir: string,
): Promise<Result<SettingsView>> {
  const file = settingsFile(dataDir);
  let backup: string | null = null;
  try {
    if (existsSync(file)) backup = await backupSettingsFile(file);
  } catch (e) {
    return fail(
      'io_error',
      `settings.json could not be kept as a backup: ${(e as Error).message}. Nothing was changed.`,
      'Check the permissions of the data folder, or move the file aside yourself.',
    );
  }
  const saved = await svc.saveSettings(structuredClone(DEFAULT_SETTINGS));
  if (!saved.ok) return saved;
  await unlink(file);
  const view = await currentSettingsView(secrets, dataDir);
  return ok(backup ? { ...view, backup } : view);
}

/**
 * Tries `input.provider` as the form describes it (saved or not) with a one-word request to `input.model` (default
 * its `model`). The key: one typed but not saved (`apiKey`), else the provider's own (hostKeyLookup: stored for its
 * id, else its `apiKeyEnv` variable) — never another's. Errors: `invalid_input` (data.issues, paths inside the
 * provider), `unauthorized`, `provider_error`.
 */
export async function testSettings(
  secrets: SecretStore,
  input: { provider: unknown; model?: string; apiKey?: string },
): Promise<Result<{ model: string; latencyMs: number }>> {
  const parsed = SettingsSchema.shape.providers.element.safeParse(input.provider);
  if (!parsed.success) return invalid(settingsIssueList(parsed.error));
  const provider = { ...parsed.data, model: input.model ?? parsed.data.model };
  const key = input.apiKey ?? hostKeyLookup(secrets)(provider);
  const r = await testConnection(provider, key);
  return r.ok ? ok({ model: provider.model, latencyMs: r.value.ms }) : r;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;

/** The parts of a provider as typed that a window needs: its model ids and window numbers (the rest may be wrong). */
function windowsOf(raw: unknown): ProviderSettings {
  const p = isRecord(raw) ? raw : {};
  const listed = Array.isArray(p['models']) ? (p['models'] as unknown[]) : [];
  const models = listed.flatMap((m): ModelEntry[] => {
    if (typeof m === 'string' && m !== '') return [m];
    if (!isRecord(m) || typeof m['id'] !== 'string' || m['id'] === '') return [];
    const contextWindow = count(m['contextWindow']);
    const outputReserve = count(m['outputReserve']);
    return [{ id: m['id'], ...(contextWindow ? { contextWindow } : {}), ...(outputReserve ? { outputReserve } : {}) }];
  });
  const contextWindow = count(p['contextWindow']);
  const outputReserve = count(p['outputReserve']);
  return {
    id: 'typed',
    kind: 'openai-compatible',
    model:
      typeof p['model'] === 'string' && p['model'] !== ''
        ? p['model']
        : (models.map((m) => (typeof m === 'string' ? m : m.id))[0] ?? ''),
    models,
    ...(contextWindow ? { contextWindow } : {}),
    ...(outputReserve ? { outputReserve } : {}),
  };
}

/**
 * The windows of the form's providers as typed (`settings.windows`): every model id of each, with its window and
 * where it came from; a field that is not (yet) valid is left out of the reckoning rather than refused. Models
 * with an empty id are skipped.
 */
export function typedWindows(providers: unknown[]): ModelWindow[] {
  return modelWindows(providers.map(windowsOf)).filter((w) => w.model !== '');
}
