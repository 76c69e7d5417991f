/**
 * Rules a save from the Settings screen must also keep, beyond the schema (schema.ts): they tie two keys together,
 * so they cannot be schema refinements without breaking files that loaded before (a hand-written file that breaks
 * one still loads and works as it did — the first provider of an id wins, an unknown default is an error only when
 * a turn starts). The screen writes only settings that keep them:
 *   - provider ids are unique (the key store, the picker and `defaultProvider` name providers by id);
 *   - `defaultProvider` names one of the providers;
 *   - a provider's base URL is http or https (the schema takes any URL; `file:` or `box:8080` reach no server);
 *   - a provider's model list names each model once;
 *   - `compaction.provider` names one of the providers;
 *   - language servers added have unique ids.
 * Each broken rule is an issue on the field to fix (the path the screen shows it on).
 */
import type { Settings, SettingsIssue } from './schema';

/** Index of the first entry whose `key` was seen before, per position (the later duplicates). */
function duplicates<T>(items: T[], key: (t: T) => string): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) out.push(i);
    seen.add(k);
  });
  return out;
}

/** The issues of `settings` against the rules above; empty when it may be saved. */
export function formIssues(settings: Settings): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const ids = new Set(settings.providers.map((p) => p.id));
  for (const i of duplicates(settings.providers, (p) => p.id))
    issues.push({
      path: `providers.${i}.id`,
      message: `another provider is already named ${settings.providers[i]?.id}`,
    });
  if (!ids.has(settings.defaultProvider))
    issues.push({
      path: 'defaultProvider',
      message:
        settings.providers.length === 0
          ? 'add a provider: the chat needs one'
          : `no provider is named ${settings.defaultProvider}; choose one of the providers`,
    });
  settings.providers.forEach((p, i) => {
    if (p.baseURL !== undefined && !/^https?:\/\//i.test(p.baseURL))
      issues.push({ path: `providers.${i}.baseURL`, message: 'use an http:// or https:// address' });
    const list = (p.models ?? []).map((m) => (typeof m === 'string' ? m : m.id));
    for (const j of duplicates(list, (m) => m))
      issues.push({ path: `providers.${i}.models.${j}`, message: `${list[j]} is in the list twice` });
  });
  const c = settings.compaction;
  if (c && !ids.has(c.provider))
    issues.push({ path: 'compaction.provider', message: `no provider is named ${c.provider}` });
  const servers = settings.lsp?.servers ?? [];
  for (const i of duplicates(servers, (s) => s.id))
    issues.push({ path: `lsp.servers.${i}.id`, message: `another server is already named ${servers[i]?.id}` });
  return issues;
}
