/**
 * Revert / unrevert / cleanup / undo / redo (DESIGN §5). The boundary `session.revert = {messageId, partId?,
 * snapshot, diff}` is soft: nothing is deleted until cleanup.
 *
 * revert(message, part?):
 *   refuse while busy → collect this session's patch parts after the boundary (fixtures/bugs/README.md B36: never another session's) →
 *   remember the tree now (or keep the one already remembered) → plan per file against the DISK NOW
 *   (revert-plan.ts): the wanted bytes are the earliest patch tree's (absent → delete), or the remembered tree's
 *   for a file only the revert in place covered (redo); the "clean" bytes are what Landfall last left there —
 *   the tree the revert in place restored the file from, else the end of the agent's last step that wrote it.
 *   A file holding other bytes was changed by someone else (fixtures/bugs/README.md B31, trial: repeated undo): it is a conflict,
 *   skipped and kept unless `force` → write the plan → store the boundary and the diff (remembered tree → now);
 *   the write and the boundary are one move (intents.ts: a kill between them is settled on the next start).
 *   The remembered tree is never taken for the disk, and `preview` is the same plan without the writes.
 * unrevert: put back the remembered tree's version of the files the revert covered, clear the boundary; a file
 *   changed since the revert wrote it is kept (skipped + conflict `changed_after_revert`) unless `force`.
 * cleanup: when the next message is sent, delete what lies after the boundary.
 * Only files listed in patch parts are ever written or deleted, and patch parts list only files agent tools
 * wrote (loop.ts), so a file the agent never wrote is never deleted (fixtures/bugs/README.md B37).
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { MessageWithParts, Part, RevertState, Session } from '../../shared/model';
import type { RevertOptions, RevertResult, UndoResult } from './revert-types';
import type { PatchInfo, SnapshotPort } from './snapshot-port';
import { applyPlan, planFiles } from './revert-plan';
import type { FileIntent, FilePlan } from './revert-plan';
import type { Intents } from './intents';
import type { SessionStore } from './store';

export interface RevertDeps {
  store: SessionStore;
  snapshot: SnapshotPort;
  busy: (sessionId: string) => boolean;
  /** Pairs each move's work-tree write with its boundary record (intents.ts), so a kill cannot split them. */
  intents: Intents;
  /** Told after each file of the plan is decided (done, total): a history move's progress report. */
  planned?: (done: number, total: number) => void;
}

/** What a revert intent's row holds: the boundary before the move and the one it writes (diff made after). */
export interface RevertIntentData {
  before: RevertState | null;
  after: Omit<RevertState, 'diff'> | null;
}

/**
 * Write `plan` and then the session's boundary `after` as one move (intents.ts): an intent row, the journaled
 * write under its id, then — in one SQLite transaction — the boundary (with the diff `diffOf` makes once the
 * files are written) and the row's deletion, then the journal's release. A plan that writes nothing just stores
 * the boundary. Returns the carried-out plan, the session and the diff.
 */
async function moveAndRecord(
  deps: RevertDeps,
  session: Session,
  plan: FilePlan,
  after: Omit<RevertState, 'diff'> | null,
  diffOf: () => Promise<string>,
): Promise<{ done: FilePlan; session: Session; diff: string }> {
  const data: RevertIntentData = { before: session.revert ?? null, after };
  const id = plan.writes.length > 0 ? deps.intents.begin(session.id, 'revert', data) : undefined;
  let done: FilePlan;
  try {
    done = await applyPlan(deps.snapshot, plan, id);
  } catch (e) {
    // Nothing committed (the store throws before its transaction commits): no record follows.
    if (id !== undefined && deps.intents.outcome(id) === 'none') deps.intents.remove(id);
    throw e;
  }
  const diff = after ? await diffOf() : '';
  const write = (): Session => deps.store.updateSession(session.id, { revert: after ? { ...after, diff } : null });
  const updated = id === undefined ? write() : deps.intents.complete(id, write, (fn) => deps.store.tx(fn));
  return { done, session: updated, diff };
}

interface Boundary {
  messageId: string;
  partId?: string;
}
interface PatchAt {
  patch: PatchInfo;
  endTree: string;
}

/** Every part of the messages in order, each with the index of its message. */
function flatten(messages: MessageWithParts[]): { part: Part; msgIndex: number }[] {
  return messages.flatMap((m, msgIndex) => m.parts.map((part) => ({ part, msgIndex })));
}

/**
 * Index in the flattened part list (every message's parts in order) of the first part at or after the boundary:
 * the part `partId`, else the message's first part. Undefined when the boundary names no message (or part) here.
 * Review marks what a revert took off disk from the same index (session/review/reverted.ts).
 */
export function boundaryIndex(messages: MessageWithParts[], b: Boundary): number | undefined {
  const mi = messages.findIndex((m) => m.id === b.messageId);
  if (mi < 0) return undefined;
  const flat = flatten(messages);
  if (b.partId !== undefined) {
    const pi = flat.findIndex((x) => x.part.id === b.partId);
    return pi < 0 ? undefined : pi;
  }
  const first = flat.findIndex((x) => x.msgIndex >= mi);
  return first < 0 ? flat.length : first;
}

/** Patch parts at or after the boundary, each with the tree at the end of its step. */
export function patchesAfter(messages: MessageWithParts[], b: Boundary): PatchAt[] | undefined {
  const start = boundaryIndex(messages, b);
  if (start === undefined) return undefined;
  const flat = flatten(messages);
  const out: PatchAt[] = [];
  let lastFinish = '';
  for (let i = 0; i < flat.length; i++) {
    const p = (flat[i] as { part: Part }).part;
    if (p.type === 'step-finish') lastFinish = p.snapshot;
    if (i >= start && p.type === 'patch') out.push({ patch: { hash: p.hash, files: p.files }, endTree: lastFinish });
  }
  return out;
}

function filesOf(patches: PatchAt[]): string[] {
  return [...new Set(patches.flatMap((p) => p.patch.files))];
}

/** Per file, the tree of the earliest patch that lists it: what a revert over `patches` restores it from. */
export function earliestTree(patches: PatchAt[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of patches) for (const f of p.patch.files) if (!out.has(f)) out.set(f, p.patch.hash);
  return out;
}

/** Per file, the tree at the end of the last step that wrote it ('' when unknown). */
function lastEndTree(patches: PatchAt[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of patches) for (const f of p.patch.files) out.set(f, p.endTree);
  return out;
}

/**
 * What a revert over `patches` wants per file, given the revert already in place (its patches `prev`, its
 * remembered tree). A file the revert in place covers was last written by that revert (from its earliest tree),
 * so that is its clean version; any other file was last written by the agent's last step that wrote it.
 * Files only the old revert covered (the boundary moved forward: redo) go back to the remembered tree.
 */
function revertIntents(patches: PatchAt[], prev: PatchAt[], remembered: string): FileIntent[] {
  const target = earliestTree(patches);
  const prevTarget = earliestTree(prev);
  const lastEnd = lastEndTree(patches);
  const files = [...new Set([...filesOf(patches), ...filesOf(prev)])];
  return files.map((path) => {
    const prevTree = prevTarget.get(path);
    const end = lastEnd.get(path);
    const clean = prevTree !== undefined ? [prevTree] : end ? [end] : undefined;
    const reason = prevTree !== undefined ? ('changed_after_revert' as const) : ('changed_after_step' as const);
    return { path, want: target.get(path) ?? remembered, ...(clean ? { clean } : {}), reason };
  });
}

function result(session: Session, partial: Partial<RevertResult>): RevertResult {
  return { applied: false, restored: [], deleted: [], skipped: [], conflicts: [], diff: '', session, ...partial };
}

function lists(plan: FilePlan): Pick<RevertResult, 'restored' | 'deleted' | 'skipped' | 'conflicts'> {
  return { restored: plan.restored, deleted: plan.deleted, skipped: plan.skipped, conflicts: plan.conflicts };
}

/**
 * Stage a revert to before `messageId` (or before `partId` in it), compared with the disk now (revert-plan.ts);
 * `preview` runs the same plan and writes nothing. Errors: `busy`, `invalid_input`.
 */
export async function revertTo(
  deps: RevertDeps,
  sessionId: string,
  b: Boundary,
  options: RevertOptions = {},
): Promise<Result<RevertResult>> {
  const { store, snapshot } = deps;
  if (deps.busy(sessionId))
    return fail('busy', 'The session is running a turn.', 'Stop the turn (or wait for it to end), then revert.');
  const session = store.getSession(sessionId);
  if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
  const messages = store.messages(sessionId);
  const patches = patchesAfter(messages, b);
  if (!patches)
    return fail(
      'invalid_input',
      `No message ${b.messageId}${b.partId ? ` / part ${b.partId}` : ''} in this session.`,
      'Pick a message of this session.',
    );
  const prev = session.revert ? (patchesAfter(messages, session.revert) ?? []) : [];
  const nowTree = await snapshot.track();
  const remembered = session.revert?.snapshot ?? nowTree;
  const intents = revertIntents(patches, prev, remembered);
  const plan = await planFiles(snapshot, nowTree, intents, options.force === true, deps.planned);
  if (options.preview) return ok(result(session, lists(plan)));
  const after: Omit<RevertState, 'diff'> =
    b.partId !== undefined
      ? { messageId: b.messageId, partId: b.partId, snapshot: remembered }
      : { messageId: b.messageId, snapshot: remembered };
  const moved = await moveAndRecord(deps, session, plan, after, () => snapshot.diff(remembered));
  return ok(result(moved.session, { applied: true, ...lists(moved.done), diff: moved.diff }));
}

/**
 * Clear the boundary: the files the revert covered get the remembered tree's bytes back — except a file changed
 * since the revert wrote it (user work made while reverted): it is kept and listed as skipped + conflict
 * (`changed_after_revert`), unless `force`. `preview` writes nothing. Errors: `busy`, `invalid_input`.
 */
export async function unrevert(
  deps: RevertDeps,
  sessionId: string,
  options: RevertOptions = {},
): Promise<Result<RevertResult>> {
  if (deps.busy(sessionId)) return fail('busy', 'The session is running a turn.', 'Stop the turn first.');
  const session = deps.store.getSession(sessionId);
  if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
  if (!session.revert)
    return fail('invalid_input', 'Nothing to unrevert: the session is not reverted.', 'Revert to a message first.');
  const prev = patchesAfter(deps.store.messages(sessionId), session.revert) ?? [];
  const remembered = session.revert.snapshot;
  const intents: FileIntent[] = [...earliestTree(prev)].map(([path, tree]) => ({
    path,
    want: remembered,
    clean: [tree],
    reason: 'changed_after_revert',
  }));
  const nowTree = await deps.snapshot.track();
  const plan = await planFiles(deps.snapshot, nowTree, intents, options.force === true, deps.planned);
  if (options.preview) return ok(result(session, lists(plan)));
  const moved = await moveAndRecord(deps, session, plan, null, async () => '');
  return ok(result(moved.session, { applied: true, ...lists(moved.done) }));
}

/** Commit a staged revert (on the next message): delete the messages/parts after the boundary, clear it. */
export function cleanup(store: SessionStore, sessionId: string): void {
  const session = store.getSession(sessionId);
  if (!session?.revert) return;
  const b = session.revert;
  const messages = store.messages(sessionId);
  const mi = messages.findIndex((m) => m.id === b.messageId);
  store.tx(() => {
    if (mi >= 0) {
      const msg = messages[mi] as MessageWithParts;
      const later = messages.slice(mi + 1).map((m) => m.id);
      if (b.partId !== undefined) {
        const pi = msg.parts.findIndex((p) => p.id === b.partId);
        store.removeParts(
          sessionId,
          msg.id,
          msg.parts.slice(Math.max(pi, 0)).map((p) => p.id),
        );
        store.removeMessages(sessionId, later);
      } else {
        store.removeMessages(sessionId, [msg.id, ...later]);
      }
    }
    store.updateSession(sessionId, { revert: null });
  });
}

/** Revert to the last user message before the boundary (or the end); gives back its text. Error `invalid_input` when there is none. */
export async function undo(
  deps: RevertDeps,
  sessionId: string,
  options: RevertOptions = {},
): Promise<Result<UndoResult>> {
  const session = deps.store.getSession(sessionId);
  const messages = deps.store.messages(sessionId);
  const limit = session?.revert ? messages.findIndex((m) => m.id === session.revert?.messageId) : messages.length;
  const target = messages
    .slice(0, limit < 0 ? messages.length : limit)
    .reverse()
    .find((m) => m.role === 'user');
  if (!target) return fail('invalid_input', 'Nothing to undo.', 'The session has no earlier turn.');
  const r = await revertTo(deps, sessionId, { messageId: target.id }, options);
  return r.ok ? ok({ ...r.value, text: deps.store.messageText(target.id) }) : r;
}

/** Move the boundary forward one turn, or unrevert when it is the last one. Error `invalid_input` when not reverted. */
export async function redo(
  deps: RevertDeps,
  sessionId: string,
  options: RevertOptions = {},
): Promise<Result<RevertResult>> {
  const session = deps.store.getSession(sessionId);
  if (!session?.revert) return fail('invalid_input', 'Nothing to redo.', 'Redo follows an undo or revert.');
  const messages = deps.store.messages(sessionId);
  const at = messages.findIndex((m) => m.id === session.revert?.messageId);
  const next = messages.slice(at + 1).find((m) => m.role === 'user');
  if (!next) return unrevert(deps, sessionId, options);
  return revertTo(deps, sessionId, { messageId: next.id }, options);
}
