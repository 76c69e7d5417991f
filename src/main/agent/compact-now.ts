/**
 * A compaction the user asks for (the chat's /compact, contract call `compaction.run`): the same compact() a turn
 * runs near the window (context/compaction.ts), now, with trigger 'manual'. It claims the session as a turn does
 * (so a prompt, a revert or a second /compact meanwhile is refused `busy`, and chat.stop aborts the summary
 * request), builds the history as a turn does (change notices in place, the todo list after the summary), and
 * stores the part in the session's last assistant message — where the chat shows its marker. The
 * part adds nothing to that message's step: the history builder ignores compaction parts inside a step.
 */
import type { LanguageModel } from 'ai';
import { fail, ok, type Result } from '../../shared/errors';
import { compact } from './context/compaction';
import type { CompactionPart } from './context/compaction-history';
import { windowFor, type WindowSpec } from './context/windows';
import { SYSTEM_PROMPT } from './defaults';
import { toolTokens } from './loop';
import { todoResendMessage } from './todo-resend';
import type { ServiceCore } from './service-core';

export interface CompactNowInput {
  /** The session's model (the one its next turn would use). */
  model: LanguageModel;
  /**
   * The model's window (default: the catalog's figure for its id), the summary model (default `model`) and the
   * summary model's window (compaction-model.ts).
   */
  window?: { spec?: WindowSpec; summaryModel?: LanguageModel; summarySpec?: WindowSpec };
}

/**
 * Compact `sessionId` now. Answers the stored part (tokens are estimates of the request with the session's system
 * text and the built-in tools). Errors, with nothing stored: `busy` (a turn or a history move runs), `invalid_input`
 * (unknown session), `no_change` (nothing older than the most recent history to fold: no assistant answer yet,
 * or a single unit), the summary request's provider error.
 */
export async function compactNow(
  core: ServiceCore,
  sessionId: string,
  input: CompactNowInput,
): Promise<Result<CompactionPart>> {
  const { store } = core;
  if (core.running.has(sessionId) || core.reverting.has(sessionId))
    return fail('busy', 'The session is running a turn or a revert.', 'Wait for it to end or stop it, then /compact.');
  if (!store.getSession(sessionId)) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session.');
  const last = store
    .messages(sessionId)
    .filter((m) => m.role === 'assistant')
    .pop();
  if (last === undefined) return nothingToFold();
  const abort = new AbortController();
  core.running.set(sessionId, abort);
  core.emit({ type: 'session.state', sessionId, state: 'busy' });
  try {
    const { model } = input;
    const id = typeof model === 'string' ? model : model.modelId;
    const system = core.context.systemFor(sessionId, SYSTEM_PROMPT, []) ?? SYSTEM_PROMPT;
    const r = await compact({
      store,
      sessionId,
      messageId: last.id,
      model: input.window?.summaryModel ?? model,
      system,
      toolTokens: toolTokens(core.tools),
      spec: input.window?.spec ?? windowFor(id),
      ...(input.window?.summarySpec ? { summarySpec: input.window.summarySpec } : {}),
      trigger: 'manual',
      signal: abort.signal,
      // as a turn builds its history (turns.ts): notices in place, the todo list after the summary, the system
      // text rebuilt with the notices a compaction folds
      notices: () => core.context.baselines.notices(sessionId),
      afterSummary: () => {
        const todo = todoResendMessage(store.messages(sessionId), store.getSession(sessionId)?.revert);
        return todo ? [todo] : [];
      },
      systemFor: (folded) =>
        core.context.systemFor(
          sessionId,
          SYSTEM_PROMPT,
          folded.map((u) => u.id),
        ),
    });
    if (r.ok) return ok(r.part);
    return r.stalled ? nothingToFold() : { ok: false, error: r.error };
  } finally {
    core.running.delete(sessionId);
    core.emit({ type: 'session.state', sessionId, state: 'idle' });
  }
}

function nothingToFold(): Result<CompactionPart> {
  return fail(
    'no_change',
    'There is nothing older than the most recent history to compact.',
    'Compaction folds earlier turns into a summary; talk with the agent first.',
  );
}
