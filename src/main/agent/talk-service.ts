/**
 * The chat's mode and model picker on the service side: what a session may choose from (modes in force, the
 * providers of settings, each with its model list — `model` and `models`, settings/models.ts) and storing a choice (session/talk.ts). A choice is validated here —
 * an unknown mode or provider is `invalid_input`, nothing stored — and read by the loop at the next step start.
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { SessionStore } from '../session/store';
import { readTalk, writeTalk } from '../session/talk';
import type { TalkChoice } from '../session/talk';
import { allModes, findMode } from './modes';
import type { ModeDefinition } from './modes';
import { modelIds } from './settings/models';
import type { Settings } from './settings/schema';

/** What the picker shows: the current choice (resolved: mode, provider and model always set) and the options. */
export interface TalkView {
  mode: string;
  provider: string;
  model: string;
  modes: { name: string; instructions: string; tools: string[] | '*' }[];
  /** Each provider with its default model and every model its list offers (settings/models.ts modelIds). */
  providers: { id: string; model: string; models: string[] }[];
}

/** The modes in force for `settings`. */
export function modesOf(settings: Settings): ModeDefinition[] {
  return allModes(settings.modes);
}

/** The session's choice resolved against settings (a removed mode reads as build, a removed provider as the default). */
export function talkView(store: SessionStore, settings: Settings, sessionId: string): TalkView {
  const stored = readTalk(store.db, sessionId);
  const modes = modesOf(settings);
  const provider =
    settings.providers.find((p) => p.id === stored?.provider) ??
    settings.providers.find((p) => p.id === settings.defaultProvider);
  return {
    mode: findMode(modes, stored?.mode).name,
    provider: provider?.id ?? '',
    model: stored?.model ?? provider?.model ?? '',
    modes: modes.map((m) => ({ name: m.name, instructions: m.instructions, tools: m.tools })),
    providers: settings.providers.map((p) => ({ id: p.id, model: p.model, models: modelIds(p) })),
  };
}

/**
 * Store a change of mode and/or model for the session's next step. `model` without `provider` keeps the current
 * provider; `provider` without `model` uses that provider's configured model. Errors `invalid_input`: unknown
 * session, mode or provider, or an empty model id (nothing stored).
 */
export function chooseTalk(
  store: SessionStore,
  settings: Settings,
  sessionId: string,
  change: { mode?: string; provider?: string; model?: string },
): Result<TalkView> {
  if (!store.getSession(sessionId)) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session.');
  const modes = modesOf(settings);
  if (change.mode !== undefined && !modes.some((m) => m.name === change.mode))
    return fail(
      'invalid_input',
      `No mode named ${change.mode}.`,
      `Use one of: ${modes.map((m) => m.name).join(', ')}, or add the mode in settings.`,
    );
  if (change.provider !== undefined && !settings.providers.some((p) => p.id === change.provider))
    return fail(
      'invalid_input',
      `No provider named ${change.provider}.`,
      `Use one of: ${settings.providers.map((p) => p.id).join(', ')}, or add it in settings.`,
    );
  if (change.model !== undefined && change.model.trim() === '')
    return fail('invalid_input', 'The model id is empty.', 'Type the model id, e.g. qwen2.5-coder:7b.');
  const cur = readTalk(store.db, sessionId);
  const next: TalkChoice = { mode: change.mode ?? cur?.mode ?? 'build' };
  const provider = change.provider ?? cur?.provider;
  if (provider !== undefined) next.provider = provider;
  const model = change.model ?? (change.provider !== undefined ? undefined : cur?.model);
  if (model !== undefined) next.model = model;
  writeTalk(store.db, sessionId, next);
  return ok(talkView(store, settings, sessionId));
}
