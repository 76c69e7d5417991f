/**
 * What one turn's loop needs from the conversation layer (DESIGN §11): the system text (the fixed system prompt
 * followed by the session's stored baseline — byte-identical for the whole session), the change notices to place
 * in the history, a re-check of the sources before each step, and the ledger's tap on the model.
 *
 * After a compaction the system text is rebuilt (`systemFor`): the change notices told at the steps it folded are
 * taken into the baseline (their source record rendered as a baseline), so the model reads each source's text in
 * force — an edited AGENTS.md's new text, never the old one beside a summary. Between compactions it stays
 * byte-identical, so the prefix stays cacheable.
 *
 * `openTurnContext` builds the baseline on the session's first model call (not when the session is created) and
 * stores it once; when that first baseline cannot be built (an instruction file that cannot be read) it answers
 * `unavailable` naming the file and why, and nothing is sent: the user's message stays stored for the next try.
 */
import type { LanguageModel } from 'ai';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { Part } from '../../../shared/model';
import type { BaselineStore } from '../../session/baseline-store';
import type { RequestLedger } from '../../session/ledger';
import { buildBaseline, recheck, renderBaseline } from './baseline';
import type { ContextEnv } from './baseline';
import { ledgerModel } from './ledger-model';

/** The loop's side of the conversation layer for one turn. */
export interface TurnContext {
  /** System text for every request of the session: system prompt + blank line + baseline. */
  system: string;
  /**
   * The system text for a history whose compaction folds the units `folded` (history unit ids: user message ids,
   * step-start part ids): `system` when none of them carries a change notice, else the prompt + the baseline
   * rebuilt from the source record after the latest such notice (module docstring).
   */
  systemFor(folded: readonly string[]): string;
  /** Re-check the sources before the step that starts with `stepPartId`; stores one notice per changed source. */
  beforeStep(stepPartId: string, parts: Part[]): void;
  /** Stored notices by the step-start part they precede (for history.ts). */
  notices(): Map<string, string[]>;
  /** `model` with its requests recorded in the ledger as step `step` of message `messageId`. */
  wrap(model: LanguageModel, messageId: string, step: number): LanguageModel;
}

/** What `openTurnContext` needs: the stores, the session, where it runs, and the fixed system prompt. */
export interface TurnContextDeps {
  baselines: BaselineStore;
  ledger: RequestLedger;
  sessionId: string;
  env: ContextEnv;
  systemPrompt: string;
}

/** Tools whose input names a file the model is about to see or change (for nested AGENTS.md). */
const FILE_TOOLS = new Set(['read', 'edit', 'write', 'multiedit']);

/** Files the tools of `parts` read or wrote (their `filePath` input), in order. */
export function toolFiles(parts: Part[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p.type !== 'tool' || !FILE_TOOLS.has(p.tool)) continue;
    const input = p.input as { filePath?: unknown } | undefined;
    if (typeof input?.filePath === 'string') out.push(input.filePath);
  }
  return out;
}

/** The system text: the fixed prompt, a blank line, the baseline text (the prompt alone when that is empty). */
function joinSystem(prompt: string, baseline: string): string {
  return baseline === '' ? prompt : `${prompt}\n\n${baseline}`;
}

/**
 * The system text of `sessionId` for a history whose compaction folds the units `folded` (TurnContext.systemFor):
 * `systemPrompt` + the stored baseline, or + the baseline rebuilt from the record after the latest notice told at
 * one of the folded steps. Undefined before the session's baseline exists.
 */
export function systemFor(
  baselines: BaselineStore,
  sessionId: string,
  systemPrompt: string,
  folded: readonly string[],
): string | undefined {
  const stored = baselines.get(sessionId);
  if (!stored) return undefined;
  const record = baselines.recordThrough(sessionId, new Set(folded));
  return joinSystem(systemPrompt, record ? renderBaseline(record) : stored.text);
}

/**
 * The turn's context (module docstring). Error `unavailable` when the session has no baseline yet and one
 * cannot be built; the hint says which file to fix.
 */
export function openTurnContext(deps: TurnContextDeps): Result<TurnContext> {
  const { baselines, ledger, sessionId, env } = deps;
  let stored = baselines.get(sessionId);
  if (!stored) {
    const built = buildBaseline(env);
    if (!built.ok)
      return fail(
        'unavailable',
        `The session's baseline could not be built: ${built.unreadable.map((u) => u.why).join('; ')}.`,
        'Make the instruction file readable (or remove it), then send again: your message is kept.',
        { unreadable: built.unreadable },
      );
    stored = baselines.put(sessionId, built.text, built.sources);
  }
  const system = joinSystem(deps.systemPrompt, stored.text);
  return ok({
    system,
    systemFor: (folded) =>
      folded.length === 0 ? system : (systemFor(baselines, sessionId, deps.systemPrompt, folded) ?? system),
    beforeStep(stepPartId, parts) {
      const known = baselines.sources(sessionId) ?? [];
      const r = recheck(env, known, toolFiles(parts));
      const changed = r.sources.length !== known.length || r.notices.length > 0;
      if (changed)
        baselines.addNotices(
          sessionId,
          stepPartId,
          r.notices.map((n) => n.text),
          r.sources,
        );
    },
    notices: () => baselines.notices(sessionId),
    wrap(model, messageId, step) {
      return ledgerModel(model, (req) => {
        const row = ledger.record(sessionId, { messageId, step, ...req });
        return (usage) => ledger.setUsage(row, usage);
      });
    },
  });
}
