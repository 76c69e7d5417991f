/**
 * ReviewService — the review side of a session (DESIGN §5 "Per-hunk review", §8 timeline).
 *
 * - `timeline(sessionId)`: one point per agent step and per review decision (review/timeline.ts).
 * - `diff(sessionId, target)`: files changed at a point (vs previous / session start / now), in a turn, or in the
 *   session, each with status, guarded text (fixtures/bugs/README.md B40) and hunks with stable ids and their decision state.
 * - `decide(input)`: keep or reject hunks (listed, or every pending hunk of a file / of the target — fixtures/bugs/README.md B39). A reject
 *   reverse-applies exactly those hunks to the files as they are now, or answers `conflict` naming the lines and
 *   writes nothing. Every decision is an event in the session log and a snapshot on the timeline.
 * - `undo(input)`: undo a decision (the latest live one by default).
 * Decide and undo answer what they changed (review/change.ts: hunk states, timeline entries, and the target's new
 * diff only when its trees moved), so a view redraws from one call; the target's diff is computed once per call.
 * Revert / unrevert of whole messages stay with the session core (AgentService.revert with `preview`).
 */
import { fail, ok, type Result } from '../../shared/errors';
import type {
  DecideInput,
  ReviewChange,
  ReviewDiff,
  ReviewTarget,
  TimelineEntry,
  UndoInput,
} from '../../shared/review-schemas';
import type { MessageWithParts, RevertState } from '../../shared/model';
import type { ReviewDeps, ReviewSnapshots } from './review/context';
import { describeChange, toReviewDiff, type ChangeView } from './review/change';
import { decide, decidedHunks, undoDecision, type DecideEnv } from './review/decide';
import type { FileAnalysis } from './review/file-analysis';
import { loadFiles, resolveTarget, type ResolvedTarget } from './review/load';
import { hunkStates, liveDecisions, type ReviewEvent } from './review/log';
import { revertedHunks, revertMarks, type RevertMarks } from './review/reverted';
import { buildTimeline } from './review/timeline';

export type { ReviewDeps, ReviewSnapshots } from './review/context';
export { ReviewLog } from './review/log';

/** A session's review state read once per call: its messages, review events and the timeline built from them. */
interface SessionFacts {
  root: string;
  snapshots: ReviewSnapshots;
  messages: MessageWithParts[];
  events: ReviewEvent[];
  /** The session's revert in force and what it took off disk (review/reverted.ts); null when not reverted. */
  revert: RevertState | undefined;
  revertSeq: number | undefined;
  marks: RevertMarks | null;
  timeline: TimelineEntry[];
}

interface Loaded extends SessionFacts {
  target: ResolvedTarget;
  files: FileAnalysis[];
  /** Ids of the target's hunks whose change the revert took off disk. */
  reverted: Set<string>;
}

function idsOf(a: FileAnalysis): string[] {
  return a.kind === 'file' ? [a.fileHunkId as string] : a.hunks.map((h) => h.id);
}

/** The `reverted` failure of a decision or undo on hunks whose change the session's revert took off disk. */
function revertedError(hunkIds: readonly string[]): Result<never> {
  const n = hunkIds.length;
  return fail(
    'reverted',
    `${n === 1 ? 'This hunk’s change is' : `These ${n} hunks’ changes are`} not on disk: the session is reverted to before ${n === 1 ? 'it' : 'them'}. Nothing was written.`,
    'Unrevert the session to bring the change back, then keep or reject it.',
    { hunkIds: [...hunkIds] },
  );
}

/**
 * The review side of one session store (see the module docstring): every method answers a Result — `busy`,
 * `invalid_input`, `no_change`, `conflict` (data.conflicts: file + line range), `outside_root`, `unavailable`,
 * `io_error` — and never throws for an expected failure.
 */
export class ReviewService {
  constructor(private readonly deps: ReviewDeps) {}

  /**
   * The session's timeline: steps and decisions in time order (TimelineEntry[]); while the session is reverted, the
   * points whose changes the revert took off disk flagged `reverted`.
   */
  timeline(sessionId: string): TimelineEntry[] {
    const messages = this.deps.messages(sessionId);
    const events = this.deps.log.list(sessionId);
    const revert = this.deps.revert?.(sessionId);
    const since = revert ? this.deps.log.revertSeq(sessionId) : undefined;
    return buildTimeline(messages, events, revertMarks(messages, events, revert, since));
  }

  private async facts(sessionId: string): Promise<Result<SessionFacts>> {
    const project = await this.deps.project(sessionId);
    if (!project.ok) return project;
    const messages = this.deps.messages(sessionId);
    const events = this.deps.log.list(sessionId);
    const revert = this.deps.revert?.(sessionId);
    const revertSeq = revert ? this.deps.log.revertSeq(sessionId) : undefined;
    const marks = revertMarks(messages, events, revert, revertSeq);
    const timeline = buildTimeline(messages, events, marks);
    return ok({ ...project.value, messages, events, revert, revertSeq, marks, timeline });
  }

  private async load(sessionId: string, target: ReviewTarget): Promise<Result<Loaded>> {
    const f = await this.facts(sessionId);
    if (!f.ok) return f;
    const t = await resolveTarget(target, f.value.timeline, f.value.snapshots);
    if (!t.ok) return t;
    const files = await loadFiles(t.value, f.value.snapshots);
    const reverted = await revertedHunks(t.value, files, f.value.marks, f.value.snapshots);
    return ok({ ...f.value, target: t.value, files, reverted });
  }

  /**
   * The diff of a target with each hunk's decision state, and `reverted` on the hunks the session's revert took off
   * disk. Errors: `invalid_input` (unknown session or point).
   */
  async diff(sessionId: string, target: ReviewTarget): Promise<Result<ReviewDiff>> {
    const l = await this.load(sessionId, target);
    if (!l.ok) return l;
    return ok(toReviewDiff(l.value.target, l.value.files, hunkStates(l.value.events), l.value.reverted));
  }

  private env(sessionId: string, root: string, snapshots: ReviewSnapshots): DecideEnv {
    const journal = this.deps.journalDir === undefined ? {} : { journalDir: this.deps.journalDir };
    const intents = this.deps.intents === undefined ? {} : { intents: this.deps.intents };
    return {
      sessionId,
      root,
      snapshots,
      log: this.deps.log,
      now: this.deps.now?.() ?? Date.now(),
      ...journal,
      ...intents,
    };
  }

  private busy(sessionId: string): Result<never> | null {
    if (!this.deps.isBusy?.(sessionId)) return null;
    return fail(
      'busy',
      'The agent is running a turn in this session.',
      'Wait for the turn to finish (or stop it), then decide.',
    );
  }

  /**
   * Keep or reject hunks. Without `hunkIds`: every pending hunk of `path`, or of the whole target. Answers what
   * changed (ReviewChange; the target's new diff when its trees moved away from `input.scope`). Hunks the session's
   * revert took off disk are never decided: named, they are refused; without names, they are passed over. Errors:
   * `busy`, `invalid_input` (unknown or already-decided hunk ids), `reverted` (data.hunkIds: hunks whose change is
   * off disk until unrevert; nothing written), `no_change` (nothing pending), `conflict` (data.conflicts:
   * HunkConflict[]; nothing written), `outside_root`, `io_error`.
   */
  async decide(input: DecideInput): Promise<Result<ReviewChange>> {
    const busy = this.busy(input.sessionId);
    if (busy) return busy;
    const l = await this.load(input.sessionId, input.target);
    if (!l.ok) return l;
    const states = hunkStates(l.value.events);
    const files = input.path ? l.value.files.filter((a) => a.path === input.path) : l.value.files;
    const known = new Set(files.flatMap(idsOf));
    let ids: string[];
    if (input.hunkIds) {
      const unknown = input.hunkIds.filter((id) => !known.has(id));
      if (unknown.length > 0)
        return fail(
          'invalid_input',
          `Unknown hunk ids: ${unknown.join(', ')}.`,
          'Reload the diff; the hunks may belong to another point.',
          { hunkIds: unknown },
        );
      const decided = input.hunkIds.filter((id) => states.has(id));
      if (decided.length > 0)
        return fail(
          'invalid_input',
          `Already decided: ${decided.join(', ')}.`,
          'Undo that decision first to change it.',
          { hunkIds: decided },
        );
      const off = input.hunkIds.filter((id) => l.value.reverted.has(id));
      if (off.length > 0) return revertedError(off);
      ids = input.hunkIds;
    } else {
      const open = [...known].filter((id) => !states.has(id));
      ids = open.filter((id) => !l.value.reverted.has(id));
      if (ids.length === 0 && open.length > 0) return revertedError(open);
    }
    if (ids.length === 0)
      return fail(
        'no_change',
        'No pending hunks to decide.',
        'Pick another point or file; every hunk here is decided.',
      );
    const rejected = new Set([...states].filter(([, v]) => v.state === 'rejected').map(([id]) => id));
    const chosen = new Set(ids);
    const env = this.env(input.sessionId, l.value.root, l.value.snapshots);
    const d = await decide(env, l.value.target, files, input.action, chosen, rejected);
    if (!d.ok) return d;
    const view = { target: input.target, scope: input.scope ?? l.value.target.scope };
    return ok(await this.change(input.sessionId, l.value, d.value, decidedHunks(files, chosen), view));
  }

  /** The ReviewChange of a decision or undo made on `f` (the facts read before it). */
  private change(
    sessionId: string,
    f: SessionFacts,
    decision: ReviewChange['decision'],
    hunks: readonly { id: string; path: string }[],
    view: ChangeView | undefined,
  ): Promise<ReviewChange> {
    const events = this.deps.log.list(sessionId);
    const { messages, revert, revertSeq, timeline: before, snapshots } = f;
    const v = view ? { view } : {};
    return describeChange({ decision, hunks, messages, revert, revertSeq, before, events, ...v, snapshots });
  }

  /**
   * Undo a decision (by id, or the latest one still in force). Answers what changed (ReviewChange; with
   * `input.target`, that target's new diff when the undo moved its trees away from `input.scope`). Errors: `busy`,
   * `invalid_input` (no such live decision, or a target not on the timeline; nothing undone), `reverted` (the
   * decision's point is one the session's revert took off disk; nothing undone), `conflict` (a file changed after
   * the decision; nothing written), `unavailable`.
   */
  async undo(input: UndoInput): Promise<Result<ReviewChange>> {
    const { sessionId, decisionId } = input;
    const busy = this.busy(sessionId);
    if (busy) return busy;
    const f = await this.facts(sessionId);
    if (!f.ok) return f;
    const live = [...liveDecisions(f.value.events).values()];
    const d = decisionId ? live.find((x) => x.decisionId === decisionId) : live[live.length - 1];
    if (!d)
      return fail(
        'invalid_input',
        decisionId ? `No decision ${decisionId} in force.` : 'No decision to undo.',
        'Reload the timeline; it may have been undone already.',
      );
    if (f.value.marks?.entries.has(d.decisionId)) return revertedError(d.hunks.map((h) => h.id));
    let view: ChangeView | undefined;
    if (input.target) {
      const t = await resolveTarget(input.target, f.value.timeline, f.value.snapshots);
      if (!t.ok) return t;
      view = { target: input.target, scope: input.scope ?? t.value.scope };
    }
    const r = await undoDecision(this.env(sessionId, f.value.root, f.value.snapshots), d);
    if (!r.ok) return r;
    return ok(await this.change(sessionId, f.value, r.value, d.hunks, view));
  }
}
