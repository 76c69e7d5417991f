/**
 * The conversation layer of a service (DESIGN §11): the request ledger, the stored baselines and change notices
 * of its sessions, a turn's context for the loop, and the view the contract call `context.get` and the command
 * `landfall sessions context` show.
 */
import os from 'node:os';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { ContextView } from '../../../shared/context-schemas';
import { BaselineStore } from '../../session/baseline-store';
import { RequestLedger } from '../../session/ledger';
import type { SessionStore } from '../../session/store';
import { localDay, renderBaseline } from './baseline';
import type { ContextEnv } from './baseline';
import { INSTRUCTION_CAP_BYTES } from './instructions';
import { pieceTokens } from './request-text';
import { stepView } from './request-view';
import { openTurnContext, systemFor } from './turn-context';
import type { TurnContext } from './turn-context';
import type { WindowLookup } from './window-fallback';

/** Options for tests and embedding: the date source (YYYY-MM-DD) and the model-window lookup. */
export interface ConversationOptions {
  today?: () => string;
  windows?: WindowLookup;
}

/** The conversation layer over one session store (module docstring). */
export class ConversationContext {
  readonly ledger: RequestLedger;
  readonly baselines: BaselineStore;

  constructor(
    private readonly store: SessionStore,
    private readonly dataDir: string,
    private readonly options: ConversationOptions = {},
  ) {
    this.ledger = new RequestLedger(store.db, pieceTokens);
    this.baselines = new BaselineStore(store.db);
  }

  /** Where a session of the project at `root` runs (environment, date, data folder for the global AGENTS.md). */
  env(root: string): ContextEnv {
    return {
      root,
      dataDir: this.dataDir,
      platform: `${os.platform()} (${os.arch()})`,
      today: this.options.today ?? localDay,
    };
  }

  /** The context of one turn (turn-context.ts). Error `unavailable` when the first baseline cannot be built. */
  openTurn(sessionId: string, root: string, systemPrompt: string): Result<TurnContext> {
    return openTurnContext({
      baselines: this.baselines,
      ledger: this.ledger,
      sessionId,
      env: this.env(root),
      systemPrompt,
    });
  }

  /**
   * The baseline as it stands now: the source record in force (the baseline's, updated by every change notice
   * still in the session) rendered like a baseline — what a compaction that folds every notice rebuilds the system
   * text with (turn-context.ts systemFor). Undefined before the session's first model call.
   */
  currentBaseline(sessionId: string): string | undefined {
    const sources = this.baselines.sources(sessionId);
    return sources ? renderBaseline(sources) : undefined;
  }

  /**
   * The system text of `sessionId` for a history whose compaction folds the units `folded` (turn-context.ts
   * systemFor): `systemPrompt` + the baseline, rebuilt with the change notices told at folded steps. Undefined
   * before the session's first model call.
   */
  systemFor(sessionId: string, systemPrompt: string, folded: readonly string[]): string | undefined {
    return systemFor(this.baselines, sessionId, systemPrompt, folded);
  }

  /**
   * The session's sources and request `step` (1-based; default the last). Errors: `invalid_input` for an unknown
   * session or a step outside 1…count (the hint says how many there are).
   */
  view(sessionId: string, step?: number): Result<ContextView> {
    if (!this.store.getSession(sessionId))
      return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
    const steps = this.ledger.count(sessionId);
    if (step !== undefined && (step < 1 || step > steps))
      return fail(
        'invalid_input',
        `Session ${sessionId} has no request ${step}.`,
        steps === 0 ? 'No model request has been made in it yet.' : `Pick a step from 1 to ${steps}.`,
        { steps },
      );
    const baseline = this.baselines.get(sessionId);
    const sources = (this.baselines.sources(sessionId) ?? []).map((s) => ({
      key: s.key,
      label: s.label,
      present: s.text !== '',
      ...(s.bytes !== undefined ? { bytes: s.bytes } : {}),
      ...(s.cutBytes !== undefined ? { cutBytes: s.cutBytes } : {}),
      hash: s.hash,
    }));
    const view: ContextView = { sessionId, instructionCapBytes: INSTRUCTION_CAP_BYTES, sources };
    const n = step ?? steps;
    const cur = n > 0 ? this.ledger.entry(sessionId, n) : undefined;
    if (!cur) return ok(view);
    const prev = n > 1 ? this.ledger.entry(sessionId, n - 1) : undefined;
    const system = JSON.parse(cur.system.json) as string;
    // the fixed prompt ends where the baseline starts (the stored one, or one a compaction rebuilt: both begin with
    // the environment source); a mode's instructions may follow it (agent/modes.ts)
    const first = baseline?.sources.find((x) => x.text !== '')?.text;
    const at = first === undefined ? -1 : system.indexOf(`\n\n${first}`);
    const fixed = at >= 0 ? at : system.length;
    view.step = stepView(cur, prev, steps, fixed, this.options.windows);
    return ok(view);
  }
}
