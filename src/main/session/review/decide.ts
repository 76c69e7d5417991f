/**
 * Keep / reject / undo (fixtures/bugs/README.md B39). A decision names hunks of one target (explicitly, or every pending hunk
 * of a file or of the whole target). Keep records the decision and writes nothing. Reject plans every chosen hunk
 * of every file first (reject-plan.ts) and writes only when none conflicts — all or nothing. Each decision snapshots
 * the work tree before and after (its own point on the timeline) and is appended to the session's event log.
 * Undo of a reject puts each file back to its bytes before the decision, if the file is still exactly as the
 * decision left it (else a conflict, nothing written); undo of a keep only records that it was undone.
 */
import { randomUUID } from 'node:crypto';
import { fail, ok, type Result } from '../../../shared/errors';
import type { Decision, HunkConflict } from '../../../shared/review-schemas';
import type { ReviewSnapshots } from './context';
import { lockedUpdate } from './disk';
import { sha1, type FileAnalysis } from './file-analysis';
import type { ResolvedTarget } from './load';
import type { Intents } from '../intents';
import type { DecidedEvent, FileEffect, ReviewLog, UndoneEvent } from './log';
import { planReject, type PlannedWrite } from './reject-plan';

export interface DecideEnv {
  sessionId: string;
  root: string;
  /** Journal folder of the work-tree writes (the app's data folder); absent: fs/journal.ts defaultJournalDir. */
  journalDir?: string;
  snapshots: ReviewSnapshots;
  log: ReviewLog;
  now: number;
  /** Pairs a decision's write with its event (session/intents.ts); absent: the event follows the write unpaired. */
  intents?: Intents;
}

function idsOf(a: FileAnalysis): string[] {
  return a.kind === 'file' ? [a.fileHunkId as string] : a.hunks.map((h) => h.id);
}

/** The hunks of `files` that `ids` names, in file order, each with the path of its file. */
export function decidedHunks(files: readonly FileAnalysis[], ids: ReadonlySet<string>): { id: string; path: string }[] {
  return files.flatMap((a) =>
    idsOf(a)
      .filter((id) => ids.has(id))
      .map((id) => ({ id, path: a.path })),
  );
}

function conflictMessage(cs: readonly HunkConflict[]): string {
  const parts = cs.map((c) =>
    c.reason === 'lines_changed'
      ? `${c.path} lines ${c.fromLine}–${c.toLine} (expected ${JSON.stringify(c.expected.slice(0, 3).join('\n'))})`
      : `${c.path} (${c.reason.replace('_', ' ')})`,
  );
  return `Cannot reject: the lines the hunk produced (or the line next to them) changed since — ${parts.join('; ')}. Nothing was written.`;
}

function effects(writes: readonly PlannedWrite[], previous: Map<string, Buffer | null>): FileEffect[] {
  return writes.map((w) => ({ path: w.path, before: sha1(previous.get(w.path) ?? null), after: sha1(w.bytes) }));
}

/**
 * Decide on `ids` (hunks of `files`, all present in them); `rejected` are ids already rejected (see planReject).
 * Errors: `conflict` (data.conflicts: HunkConflict[]),
 * `outside_root`, `io_error`.
 */
export async function decide(
  env: DecideEnv,
  t: ResolvedTarget,
  files: readonly FileAnalysis[],
  action: 'accept' | 'reject',
  ids: ReadonlySet<string>,
  rejected: ReadonlySet<string> = new Set(),
): Promise<Result<Decision>> {
  const touched = files.filter((a) => idsOf(a).some((id) => ids.has(id)));
  const treeBefore = await env.snapshots.track();
  const hunks = decidedHunks(touched, ids);
  const base: Omit<DecidedEvent, 'files' | 'treeAfter'> = {
    type: 'review.decided',
    sessionId: env.sessionId,
    decisionId: `dec_${randomUUID()}`,
    action,
    scope: t.scope,
    from: t.from,
    to: t.to,
    ...(t.messageId ? { messageId: t.messageId } : {}),
    hunks,
    treeBefore,
    time: env.now,
  };
  let writes: PlannedWrite[] = [];
  let previous = new Map<string, Buffer | null>();
  let intent: string | undefined;
  if (action === 'reject') {
    const paths = touched.flatMap((a) => (a.oldPath ? [a.path, a.oldPath] : [a.path]));
    const r = await lockedUpdate(
      env.root,
      paths,
      (read) => {
        const out: PlannedWrite[] = [];
        const conflicts: HunkConflict[] = [];
        for (const a of touched) {
          const p = planReject(a, ids, read, rejected);
          if (p.ok) out.push(...p.writes);
          else conflicts.push(...p.conflicts);
        }
        if (conflicts.length > 0)
          return fail(
            'conflict',
            conflictMessage(conflicts),
            'Look at the file as it is now; undo the later change first, or edit the lines by hand.',
            { conflicts },
          );
        return ok({ writes: out, value: null });
      },
      env.journalDir,
      (w, prev) => (intent = beginIntent(env, 'review.decided', { ...base, files: effects(w, prev) })),
    );
    if (!r.ok) return abandon(env, intent, r);
    writes = r.value.writes;
    previous = r.value.previous;
  }
  const treeAfter = writes.length > 0 ? await env.snapshots.track() : treeBefore;
  const event: DecidedEvent = { ...base, files: effects(writes, previous), treeAfter };
  const seq = record(env, intent, event);
  return ok({
    decisionId: event.decisionId,
    action,
    hunkIds: hunks.map((h) => h.id),
    written: writes.filter((w) => w.bytes !== null).map((w) => w.path),
    deleted: writes.filter((w) => w.bytes === null).map((w) => w.path),
    snapshot: treeAfter,
    seq,
  });
}

/** The intent of a decision's write (session/intents.ts), when the service pairs writes with records. */
function beginIntent(env: DecideEnv, kind: 'review.decided' | 'review.undone', data: unknown): string | undefined {
  return env.intents?.begin(env.sessionId, kind, data);
}

/** A failed write: its intent row goes unless its transaction committed (then the next start writes the record). */
function abandon<T>(env: DecideEnv, intent: string | undefined, r: Result<T>): Result<T> {
  if (intent !== undefined && env.intents?.outcome(intent) === 'none') env.intents.remove(intent);
  return r;
}

/** Append `event` to the log — with its intent, in one SQLite transaction with the row's deletion. */
function record(env: DecideEnv, intent: string | undefined, event: DecidedEvent | UndoneEvent): number {
  if (intent === undefined || !env.intents) return env.log.append(event);
  return env.intents.complete(intent, () => env.log.append(event));
}

/** Undo a live decision (see module doc). Errors: `conflict` (data.files: paths changed since), `unavailable`. */
export async function undoDecision(env: DecideEnv, d: DecidedEvent): Promise<Result<Decision>> {
  const treeBefore = await env.snapshots.track();
  const restore = new Map<string, Buffer | null>();
  for (const f of d.files) {
    const bytes = f.before === null ? null : await env.snapshots.readFile(d.treeBefore, f.path);
    if (f.before !== null && bytes == null)
      return fail(
        'unavailable',
        `The bytes of ${f.path} before the decision are not in the snapshot store.`,
        'Restore the file by hand from your editor history.',
      );
    restore.set(f.path, bytes == null ? null : Buffer.from(bytes));
  }
  let intent: string | undefined;
  const base: Omit<UndoneEvent, 'files' | 'treeAfter'> = {
    type: 'review.undone',
    sessionId: env.sessionId,
    decisionId: d.decisionId,
    treeBefore,
    time: env.now,
  };
  const r = await lockedUpdate(
    env.root,
    d.files.map((f) => f.path),
    (read) => {
      const changed = d.files.filter((f) => sha1(read(f.path)) !== f.after).map((f) => f.path);
      if (changed.length > 0)
        return fail(
          'conflict',
          `Cannot undo: ${changed.join(', ')} changed after the decision. Nothing was written.`,
          'Undo the later changes first, or edit the file by hand.',
          { files: changed },
        );
      return ok({ writes: d.files.map((f) => ({ path: f.path, bytes: restore.get(f.path) ?? null })), value: null });
    },
    env.journalDir,
    (w, prev) => (intent = beginIntent(env, 'review.undone', { ...base, files: effects(w, prev) })),
  );
  if (!r.ok) return abandon(env, intent, r);
  const treeAfter = r.value.writes.length > 0 ? await env.snapshots.track() : treeBefore;
  const seq = record(env, intent, { ...base, files: effects(r.value.writes, r.value.previous), treeAfter });
  return ok({
    decisionId: d.decisionId,
    action: d.action,
    hunkIds: d.hunks.map((h) => h.id),
    written: r.value.writes.filter((w) => w.bytes !== null).map((w) => w.path),
    deleted: r.value.writes.filter((w) => w.bytes === null).map((w) => w.path),
    snapshot: treeAfter,
    seq,
  });
}
