/**
 * The Settings form's rules, as pure functions over the settings document (shared/settings-schemas.ts SettingsDoc):
 * what adding a provider from a preset fills in, what renaming or removing a provider does to the names that point
 * at it (`defaultProvider`, `compaction.provider`), which of main's field issues belong to a field, what a save
 * sends, and when the form is stale (settings.json moved on since the form was loaded). The settings slice holds
 * the state and calls main; components only render and wire these. Main validates every save again (the one
 * schema and form-rules.ts): nothing here is trusted to be the last word.
 */
import { PROVIDER_PRESETS } from '../../../shared/settings-schemas';
import type {
  ModelDoc,
  ModelWindow,
  PresetId,
  ProviderDoc,
  RuleDoc,
  SettingsDoc,
  SettingsSave,
} from '../../../shared/settings-schemas';

/** One issue main named when it refused a save: the field's path (`providers.1.baseURL`) and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** A key typed for a provider (to store on save), null to remove its stored key, undefined to leave it. */
export type KeyDraft = string | null | undefined;

const idOf = (m: ModelDoc): string => (typeof m === 'string' ? m : m.id);

/** The model ids a provider offers: its default model first, then its list, each once (main's models.ts order). */
export function modelIds(p: ProviderDoc): string[] {
  return [...new Set([p.model, ...(p.models ?? []).map(idOf)])].filter((m) => m !== '');
}

/** `base`, or `base-2`, `base-3`… — the first id no provider in `taken` has. */
export function freeId(base: string, taken: string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

/** A provider entry made from preset `id`: its kind, base URL, key variable and model, under an id still free. */
export function providerFromPreset(id: PresetId, taken: string[]): ProviderDoc {
  const p = PROVIDER_PRESETS[id];
  return {
    id: freeId(p.id, taken),
    kind: p.kind,
    model: p.model,
    ...(p.baseURL ? { baseURL: p.baseURL } : {}),
    ...('apiKeyEnv' in p ? { apiKeyEnv: p.apiKeyEnv } : {}),
  };
}

/** `doc` with a provider from preset `id` added last; the first provider of a document becomes its default. */
export function addProvider(doc: SettingsDoc, id: PresetId): SettingsDoc {
  const provider = providerFromPreset(
    id,
    doc.providers.map((p) => p.id),
  );
  const providers = [...doc.providers, provider];
  const known = doc.providers.some((p) => p.id === doc.defaultProvider);
  return { ...doc, providers, defaultProvider: known ? doc.defaultProvider : provider.id };
}

/** `doc` with provider `index` changed by `change` (other providers untouched). */
export function updateProvider(doc: SettingsDoc, index: number, change: Partial<ProviderDoc>): SettingsDoc {
  const providers = doc.providers.map((p, i) => (i === index ? dropEmpty({ ...p, ...change }) : p));
  return { ...doc, providers };
}

/** Optional text fields left empty are removed (an empty base URL means "the provider's default"). */
function dropEmpty(p: ProviderDoc): ProviderDoc {
  const out: Record<string, unknown> = { ...p };
  for (const k of ['baseURL', 'apiKeyEnv'] as const) if (out[k] === '') delete out[k];
  for (const k of ['contextWindow', 'outputReserve'] as const) if (out[k] === undefined) delete out[k];
  if (Array.isArray(out['models']) && out['models'].length === 0) delete out['models'];
  return out as ProviderDoc;
}

/** Renames provider `index` to `id`; `defaultProvider` and `compaction.provider` follow when they named it. */
export function renameProvider(doc: SettingsDoc, index: number, id: string): SettingsDoc {
  const old = doc.providers[index]?.id;
  const next = updateProvider(doc, index, { id });
  if (old === undefined) return next;
  return {
    ...next,
    defaultProvider: doc.defaultProvider === old ? id : doc.defaultProvider,
    ...(doc.compaction?.provider === old ? { compaction: { ...doc.compaction, provider: id } } : {}),
  };
}

/**
 * `doc` without provider `index`. A default that named it moves to the first provider left ('' when none is left:
 * main then asks for one); a compaction model on it is dropped (summaries go back to the session's own model).
 */
export function removeProvider(doc: SettingsDoc, index: number): SettingsDoc {
  const gone = doc.providers[index]?.id;
  const providers = doc.providers.filter((_, i) => i !== index);
  const { compaction, ...rest } = doc;
  return {
    ...rest,
    providers,
    defaultProvider: doc.defaultProvider === gone ? (providers[0]?.id ?? '') : doc.defaultProvider,
    ...(compaction && compaction.provider !== gone ? { compaction } : {}),
  };
}

/** Provider `index`'s other models (beyond its default) set to `ids`; entries with their own window are kept. */
export function setOtherModels(doc: SettingsDoc, index: number, ids: string[]): SettingsDoc {
  const p = doc.providers[index];
  if (!p) return doc;
  const own = new Map((p.models ?? []).filter((m) => typeof m !== 'string').map((m) => [idOf(m), m]));
  const kept = (p.models ?? []).filter((m) => idOf(m) === p.model);
  return updateProvider(doc, index, { models: [...kept, ...ids.map((id) => own.get(id) ?? id)] });
}

/** The other models of a provider (its list without the default), as the form edits them. */
export function otherModels(p: ProviderDoc): string[] {
  return (p.models ?? []).map(idOf).filter((m) => m !== p.model);
}

/** The list `items` with entry `index` replaced (`value`) or removed (`undefined`). */
export function withItem<T>(items: T[], index: number, value: T | undefined): T[] {
  return value === undefined ? items.filter((_, i) => i !== index) : items.map((x, i) => (i === index ? value : x));
}

/** A new permission rule as the form adds it: ask before running commands (the user edits it from there). */
export const NEW_RULE: RuleDoc = { permission: 'bash', pattern: '', action: 'ask' };

/**
 * The words of `text` split at white space, and at commas too when `commas` (a list typed in one field: model ids,
 * file extensions). A command line is split at white space only; an argument with a space in it is edited in
 * settings.json.
 */
export function words(text: string, commas = true): string[] {
  return text.split(commas ? /[\s,]+/ : /\s+/).filter((w) => w !== '');
}

/** `record` with key `from` renamed to `to`, keeping the order of the keys (an MCP server renamed in the form). */
export function renameKey<T>(record: Record<string, T>, from: string, to: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k === from ? to : k, v]));
}

/** The messages of `issues` for the field at `path` (exactly, or anything inside it). */
export function issuesAt(issues: FieldIssue[], path: string): string[] {
  return issues.filter((i) => i.path === path || i.path.startsWith(`${path}.`)).map((i) => i.message);
}

/** The issues main returned with a refused save (`data.issues`), or [] when it named none. */
export function issuesOf(data: Record<string, unknown> | undefined): FieldIssue[] {
  const list = data?.['issues'];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (i): i is FieldIssue =>
      typeof i === 'object' && i !== null && typeof i.path === 'string' && typeof i.message === 'string',
  );
}

/** What a save sends: the whole document, the version it was loaded at, the typed keys per provider id. */
export function saveInput(doc: SettingsDoc, base: string, keys: KeyDraft[]): SettingsSave {
  const typed = Object.fromEntries(
    doc.providers.flatMap((p, i) => {
      const k = keys[i];
      return k === undefined || k === '' ? [] : [[p.id, k] as const];
    }),
  );
  return { settings: doc as Record<string, unknown>, base, ...(Object.keys(typed).length ? { keys: typed } : {}) };
}

/** True when the form differs from the document it was loaded from, or a key was typed or removed. */
export function isDirty(doc: SettingsDoc | null, loaded: SettingsDoc | null, keys: KeyDraft[]): boolean {
  return JSON.stringify(doc) !== JSON.stringify(loaded) || keys.some((k) => k !== undefined && k !== '');
}

/**
 * The stale rule: the form was loaded at version `loaded`; settings.json is now at `disk` (the newest
 * settings.changed event). Stale when they differ — except during the form's own save, whose answer brings the
 * new version (its own change event may arrive first).
 */
export function isStale(loaded: string | undefined, disk: string | null, saving: boolean): boolean {
  return !saving && loaded !== undefined && disk !== null && disk !== loaded;
}

/**
 * Why Save is off, in words shown next to it (null when it is on): settings.json cannot be read, or it changed on
 * disk since the form was loaded (the stale rule).
 */
export function saveBlockedWhy(loadError: boolean, stale: boolean): string | null {
  if (loadError) return 'Save is off: settings.json cannot be read — fix it, or reset to the defaults first.';
  if (stale) return 'Save is off: settings.json changed on disk since this form was loaded. Reload it first.';
  return null;
}

/** The windows of provider `index`'s models, in its model order. */
export function windowsOf(windows: ModelWindow[], index: number): ModelWindow[] {
  return windows.filter((w) => w.provider === index);
}

/** "128,000 tokens" */
export function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}
