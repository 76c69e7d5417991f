/**
 * Settings between the screen and the core: the core keeps providers in settings.json, each naming the environment
 * variable that may hold its key (`apiKeyEnv`; keys are never stored there); the screen shows one provider choice,
 * model, base URL and whether a key is found. A key typed in the app goes to the platform's SecretStore (keyed by
 * provider id) and from there straight to the provider client when a model is made (`hostKeyLookup`): it is never
 * put in process.env, so no child process can inherit it.
 */
import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PROVIDER_PRESETS } from '../../shared/contract';
import type { ProviderId, SettingsInput, SettingsView } from '../../shared/contract';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { AgentService } from '../agent/service';
import { testConnection } from '../agent/test-connection';
import { environmentKey } from '../agent/providers/keys';
import type { KeyLookup } from '../agent/providers/keys';
import { readSettingsFile, type SettingsFileState } from '../agent/settings/read';
import { backupSettingsFile } from '../agent/settings/save';
import type { ProviderSettings, Settings } from '../agent/settings/schema';
import type { SecretStore } from './platform';

const KNOWN: ProviderId[] = ['ollama', 'lmstudio', 'anthropic', 'openai'];

/**
 * How the app finds a provider's key: the key stored in the app for that provider id (SecretStore) first, else the
 * variable the provider's `apiKeyEnv` names, read from the environment now — per provider, as the command line does.
 */
export function hostKeyLookup(secrets: SecretStore): KeyLookup {
  const fromEnvironment = environmentKey();
  return (provider) => secrets.get(provider.id) ?? fromEnvironment(provider);
}

/** True for the `LANDFALL_KEY_<ID>` names older versions wrote into settings.json as a provider's apiKeyEnv. */
function legacyKeyVariable(name: string | undefined): boolean {
  return name !== undefined && name.startsWith('LANDFALL_KEY_');
}

/** True when no settings file exists yet: the first-run screen shows. */
export function isFirstRun(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'settings.json'));
}

/** Where the core keeps its settings. */
export function settingsFile(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

/**
 * The screen's view of the settings: of `state` (the file as read just now) when given, else of the core's.
 * A file that cannot be used gives empty fields and `loadError` — never the defaults dressed as the user's.
 */
export function settingsView(
  svc: AgentService,
  secrets: SecretStore,
  dataDir: string,
  state?: SettingsFileState,
): SettingsView {
  if (state?.error)
    return {
      provider: null,
      model: '',
      baseURL: '',
      hasKey: false,
      keyStorage: secrets.kind(),
      loadError: state.error,
    };
  const settings = state?.settings ?? svc.getSettings();
  const current = settings.providers.find((p) => p.id === settings.defaultProvider);
  const choice: ProviderId | null =
    isFirstRun(dataDir) || !current
      ? null
      : KNOWN.includes(current.id as ProviderId)
        ? (current.id as ProviderId)
        : 'custom';
  return {
    provider: choice,
    model: current?.model ?? '',
    baseURL: current?.baseURL ?? '',
    hasKey: current ? hostKeyLookup(secrets)(current) !== undefined : false,
    keyStorage: secrets.kind(),
  };
}

/** The view of settings.json as it is on disk now (it may have been edited by hand while the app runs). */
export async function currentSettingsView(
  svc: AgentService,
  secrets: SecretStore,
  dataDir: string,
): Promise<SettingsView> {
  return settingsView(svc, secrets, dataDir, await readSettingsFile(settingsFile(dataDir)));
}

/** The provider entry a settings input describes, merged over the existing one. */
function providerFrom(
  settings: Settings,
  input: Partial<SettingsInput> & { provider: ProviderId },
): Result<ProviderSettings> {
  const id = input.provider;
  const existing = settings.providers.find((p) => p.id === id);
  const kind: ProviderSettings['kind'] = id === 'anthropic' || id === 'openai' ? id : 'openai-compatible';
  const model = input.model?.trim() || existing?.model || '';
  if (!model)
    return fail('invalid_input', 'No model is named.', 'Type the model id (for Ollama, e.g. qwen2.5-coder:7b).');
  const baseURL =
    input.baseURL?.trim() ||
    existing?.baseURL ||
    (PROVIDER_PRESETS[id] as { baseURL: string } | undefined)?.baseURL ||
    undefined;
  if (kind === 'openai-compatible' && !baseURL)
    return fail(
      'invalid_input',
      'An OpenAI-compatible server needs a base URL.',
      'Type the server URL, e.g. http://127.0.0.1:8080/v1.',
    );
  const preset = AgentService.defaultSettings().providers.find((p) => p.id === id)?.apiKeyEnv;
  const apiKeyEnv = existing && !legacyKeyVariable(existing.apiKeyEnv) ? existing.apiKeyEnv : preset;
  return ok({ id, kind, model, ...(baseURL ? { baseURL } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}) });
}

/**
 * "Reset to defaults": keeps the current file as settings.json.bak-<time>, and puts the core back on the defaults
 * with no file (the first-run state). Returns the backup's path (null when there was no file). Error `io_error`
 * when the file cannot be moved aside (then nothing changed).
 */
async function resetSettings(svc: AgentService, dataDir: string): Promise<Result<string | null>> {
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
  const saved = await svc.saveSettings(AgentService.defaultSettings());
  if (!saved.ok) return saved;
  await unlink(file);
  return ok(backup);
}

/**
 * Saves the screen's settings over settings.json as it is on disk now; a key goes to the secret store (or is
 * removed with `apiKey: null`). A file that cannot be read is never overwritten: error `conflict`, unless
 * `input.reset` (then the old file is kept as a backup, named in the answer's `backup`, and the input is applied
 * over the defaults). Errors: `invalid_input` (no model, no base URL), `io_error` (the backup failed).
 */
export async function saveSettingsInput(
  svc: AgentService,
  secrets: SecretStore,
  dataDir: string,
  input: SettingsInput,
): Promise<Result<SettingsView>> {
  let state = await readSettingsFile(settingsFile(dataDir));
  let backup: string | null = null;
  if (input.reset) {
    const reset = await resetSettings(svc, dataDir);
    if (!reset.ok) return reset;
    backup = reset.value;
    state = { exists: false, settings: null, error: null, text: null, bom: false };
  } else if (state.error) {
    return fail(
      'conflict',
      state.error.message,
      'Fix settings.json by hand and reload, or choose "Reset to defaults" (the file is then kept as settings.json.bak-<time>).',
      { file: state.error.file },
    );
  }
  const withBackup = (view: SettingsView): SettingsView => (backup ? { ...view, backup } : view);
  if (input.provider === null) return ok(withBackup(settingsView(svc, secrets, dataDir, state)));
  const settings = state.settings ?? svc.getSettings();
  const provider = providerFrom(settings, { ...input, provider: input.provider });
  if (!provider.ok) return provider;
  if (input.apiKey !== undefined) await secrets.set(provider.value.id, input.apiKey);
  // changed in place (or added at the end), so the file keeps its order and only this entry is rewritten
  const known = settings.providers.some((p) => p.id === provider.value.id);
  const providers = known
    ? settings.providers.map((p) => (p.id === provider.value.id ? provider.value : p))
    : [...settings.providers, provider.value];
  const saved = await svc.saveSettings({ ...settings, defaultProvider: provider.value.id, providers });
  if (!saved.ok) return saved;
  return ok(withBackup(settingsView(svc, secrets, dataDir)));
}

/**
 * Tries the described (or saved) provider with a one-word request. The key: one typed but not saved (`apiKey`),
 * else the provider's own (hostKeyLookup: stored for it, else its `apiKeyEnv` variable) — never another's.
 */
export async function testSettings(
  svc: AgentService,
  secrets: SecretStore,
  input: Partial<SettingsInput>,
): Promise<Result<{ model: string; latencyMs: number }>> {
  const settings = svc.getSettings();
  const id = (input.provider ?? null) || (settings.defaultProvider as ProviderId);
  const provider = providerFrom(settings, { ...input, provider: id });
  if (!provider.ok) return provider;
  const key = input.apiKey ?? hostKeyLookup(secrets)(provider.value);
  const r = await testConnection(provider.value, key);
  return r.ok ? ok({ model: provider.value.model, latencyMs: r.value.ms }) : r;
}
