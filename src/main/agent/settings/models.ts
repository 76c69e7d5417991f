/**
 * A provider's models as settings name them, and each model's window. A provider has a default model (`model`) and
 * a list the chat's picker offers (`models`, each an id or `{ id, contextWindow, outputReserve }`); the default is
 * always offered, first. A model's window comes from its own entry, else the provider's `contextWindow` /
 * `outputReserve`, else the catalog, else the fallback guess (context/windows.ts) — `source` says which, so the
 * Settings screen and the context meter show a guess as a guess.
 */
import { windowFor, type WindowSpec } from '../context/windows';
import type { WindowLookup } from '../context/window-fallback';
import type { ModelEntry, ProviderSettings, Settings } from './schema';

const idOf = (m: ModelEntry): string => (typeof m === 'string' ? m : m.id);

/** The ids the picker offers for `p`: its default model first, then its list in order, each once. */
export function modelIds(p: ProviderSettings): string[] {
  return [...new Set([p.model, ...(p.models ?? []).map(idOf)])];
}

/** The window settings that apply to model `id` of `p`: the model entry's own, else the provider's. */
export function modelSettings(p: ProviderSettings, id: string): { contextWindow?: number; outputReserve?: number } {
  const own = (p.models ?? []).find((m): m is Exclude<ModelEntry, string> => typeof m !== 'string' && m.id === id);
  const contextWindow = own?.contextWindow ?? p.contextWindow;
  const outputReserve = own?.outputReserve ?? p.outputReserve;
  return {
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(outputReserve !== undefined ? { outputReserve } : {}),
  };
}

/** The window of model `id` of provider `p` (module docstring for the order). */
export function modelWindow(p: ProviderSettings, id: string): WindowSpec {
  return windowFor(id, modelSettings(p, id));
}

/**
 * The window lookup of the request ledger and the context meter (context/window-fallback.ts): a ledger entry names
 * its model `<client provider>:<model id>` (ledger-model.ts) — `first.chat:qwen…` for an OpenAI-compatible
 * provider `first`, `anthropic.messages:claude…` for Anthropic. The provider entry is the one whose id the client
 * name starts with, else the first whose list holds the model id; without one, the catalog's figure. Undefined
 * when only the fallback guess is left (the meter then says it is a guess).
 */
export function windowLookup(settings: () => Settings): WindowLookup {
  return (name) => {
    const at = name.indexOf(':');
    const client = at < 0 ? '' : name.slice(0, at);
    const id = at < 0 ? name : name.slice(at + 1);
    const providers = settings().providers;
    const entry =
      providers.find((p) => client === p.id || client.startsWith(`${p.id}.`)) ??
      providers.find((p) => modelIds(p).includes(id));
    const spec = entry ? modelWindow(entry, id) : windowFor(id);
    return spec.source === 'fallback' ? undefined : { tokens: spec.window, source: spec.source };
  };
}
