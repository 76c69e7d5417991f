/**
 * The model that writes compaction summaries (DESIGN §11: "the older turns are summarised by the model, or a
 * smaller model a setting names"). settings.json `compaction: { provider, model? }` names a provider of
 * `providers` and one of its models (default: that provider's own `model`); without it the session's model writes
 * its summaries. The named model serves both the automatic compaction of a turn (loop.ts → compaction-rules.ts)
 * and the chat's /compact (compact-now.ts); the steps keep the session's model.
 *
 * The summary request is bounded by the smaller of the two windows (the session's trigger and the summary
 * model's), so a small summary model is never sent more than it takes (context/compaction.ts).
 *
 * When the named provider is gone from settings or its model cannot be made (no key), summaries fall back to the
 * session's model — compaction must still run for the turn to go on — and `problem` says why; the Settings screen
 * shows the same sentence beside the setting (compactionProblem).
 */
import type { LanguageModel } from 'ai';
import type { Result } from '../../shared/errors';
import type { WindowSpec } from './context/windows';
import { modelWindow } from './settings/models';
import type { ProviderSettings, Settings } from './settings/schema';
import type { LabelledModel } from './talk-steps';

/** What a turn's compaction uses: the summary model and its window, or why the session's model is used instead. */
export interface SummaryModel {
  summaryModel?: LanguageModel;
  summarySpec?: WindowSpec;
  /** `provider/model` of the summary model. */
  label?: string;
  problem?: string;
}

/** The provider and model id `settings.compaction` names, or why it cannot be used (undefined: none named). */
function named(settings: Settings): { provider: ProviderSettings; model: string } | { problem: string } | undefined {
  const c = settings.compaction;
  if (!c) return undefined;
  const provider = settings.providers.find((p) => p.id === c.provider);
  if (!provider)
    return {
      problem: `The compaction model names provider "${c.provider}", which is not in your providers; summaries use the session's model.`,
    };
  return { provider, model: c.model ?? provider.model };
}

/**
 * The summary model of `settings` (module docstring), made with `make` (the service's model factory: the
 * provider's key, or a test's scripted model). Never fails: a problem leaves the session's model in charge.
 */
export function summaryModelFor(
  settings: Settings,
  make: (choice: { provider: string; model: string }) => Result<LabelledModel>,
): SummaryModel {
  const n = named(settings);
  if (n === undefined) return {};
  if ('problem' in n) return { problem: n.problem };
  const made = make({ provider: n.provider.id, model: n.model });
  if (!made.ok)
    return {
      problem: `The compaction model cannot be used (${made.error.message}); summaries use the session's model.`,
    };
  return { summaryModel: made.value.model, summarySpec: modelWindow(n.provider, n.model), label: made.value.label };
}

/**
 * Why the compaction setting would not be used right now, for the Settings screen: the provider is missing, or
 * it is a hosted provider (Anthropic, OpenAI) for which `hasKey` finds no key. Undefined when it is fine or unset.
 */
export function compactionProblem(settings: Settings, hasKey: (p: ProviderSettings) => boolean): string | undefined {
  const n = named(settings);
  if (n === undefined) return undefined;
  if ('problem' in n) return n.problem;
  if (n.provider.kind !== 'openai-compatible' && !hasKey(n.provider))
    return `${n.provider.id} has no key (stored or in ${n.provider.apiKeyEnv ?? 'an apiKeyEnv variable'}); summaries would use the session's model.`;
  return undefined;
}
