/**
 * Revert / unrevert / cleanup / undo / redo (DESIGN §5). The boundary `session.revert = {messageId, partId?,
 * snapshot, diff}` is soft: nothing is deleted until cleanup.
 *
 * revert(message, part?):
 *   refuse while busy → collect this session's patch parts after the boundary (B36: never another session's) →
 *   remember the tree now (or keep the one already remembered, and first put back the files the previous revert
 *   changed, so repeated undo starts from the same base) → conflict check: a file whose bytes now differ from the
 *   tree at the end of the agent's last step that wrote it was changed by someone else (B31); it is skipped
 *   unless `force` → revert the patches (earliest tree per file; a file absent there is deleted) → store the
 *   boundary and the diff (remembered tree → now).
 * unrevert: put back the remembered tree's version of exactly the files the revert covered, clear the boundary.
 * cleanup: when the next message is sent, delete what lies after the boundary.
 * Only files listed in patch parts are ever written or deleted, and patch parts list only files agent tools
 * wrote (loop.ts), so a file the agent never wrote is never deleted (B37).
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Part, RevertState, Session } from '../../shared/model';
import type { RevertConflict, RevertOptions, RevertResult, UndoResult, MessageWithParts } from '../agent/service-types';
import type { PatchInfo, SnapshotPort } from './snapshot-port';
import type { SessionStore } from './store';

export interface RevertDeps {
  store: SessionStore;
  snapshot: SnapshotPort;
  busy: (sessionId: string) => boolean;
}

interface Boundary { messageId: string; partId?: string }
interface PatchAt { patch: PatchInfo; endTree: string }

/** Index of the first part that lies after the boundary in the flattened part list, or -1 when unknown. */
function flatten(messages: MessageWithParts[]): { part: Part; msgIndex: number }[] {
  return messages.flatMap((m, msgIndex) => m.parts.map((part) => ({ part, msgIndex })));
}

function boundaryIndex(messages: MessageWithParts[], b: Boundary): number | undefined {
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

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

async function findConflicts(snap: SnapshotPort, patches: PatchAt[], current: (f: string) => Promise<Uint8Array | undefined>): Promise<RevertConflict[]> {
  const lastEnd = new Map<string, string>();
  for (const p of patches) for (const f of p.patch.files) lastEnd.set(f, p.endTree);
  const conflicts: RevertConflict[] = [];
  for (const [file, endTree] of lastEnd) {
    if (endTree === '') continue;
    if (!same(await current(file), await snap.readFile(endTree, file))) conflicts.push({ path: file, reason: 'changed_after_step' });
  }
  return conflicts;
}

function result(session: Session, partial: Partial<RevertResult>): RevertResult {
  return { applied: false, restored: [], deleted: [], skipped: [], conflicts: [], diff: '', session, ...partial };
}

/** Stage a revert to before `messageId` (or before `partId` in it). Errors: `busy`, `invalid_input`. */
export async function revertTo(deps: RevertDeps, sessionId: string, b: Boundary, options: RevertOptions = {}): Promise<Result<RevertResult>> {
  const { store, snapshot } = deps;
  if (deps.busy(sessionId)) return fail('busy', 'The session is running a turn.', 'Stop the turn (or wait for it to end), then revert.');
  const session = store.getSession(sessionId);
  if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
  const messages = store.messages(sessionId);
  const patches = patchesAfter(messages, b);
  if (!patches) return fail('invalid_input', `No message ${b.messageId}${b.partId ? ` / part ${b.partId}` : ''} in this session.`, 'Pick a message of this session.');
  const prevFiles = session.revert ? filesOf(patchesAfter(messages, session.revert) ?? []) : [];
  const nowTree = await snapshot.track();
  const remembered = session.revert?.snapshot ?? nowTree;
  const prevSet = new Set(prevFiles);
  const current = (f: string): Promise<Uint8Array | undefined> => snapshot.readFile(prevSet.has(f) ? remembered : nowTree, f);
  const conflicts = await findConflicts(snapshot, patches, current);
  const conflicted = new Set(conflicts.map((c) => c.path));
  const skipped = options.force ? [] : [...conflicted];
  const toRevert = patches.map((p) => ({ hash: p.patch.hash, files: p.patch.files.filter((f) => options.force || !conflicted.has(f)) }));
  if (options.preview) {
    return ok(result(session, { restored: filesOf(patches).filter((f) => !skipped.includes(f)), skipped, conflicts }));
  }
  if (prevFiles.length > 0) await snapshot.revert([{ hash: remembered, files: prevFiles }]);
  const report = await snapshot.revert(toRevert.filter((p) => p.files.length > 0));
  const diff = await snapshot.diff(remembered);
  const revert: RevertState = b.partId !== undefined ? { messageId: b.messageId, partId: b.partId, snapshot: remembered, diff } : { messageId: b.messageId, snapshot: remembered, diff };
  const updated = store.updateSession(sessionId, { revert });
  return ok(result(updated, { applied: true, restored: report.restored, deleted: report.deleted, skipped, conflicts, diff }));
}

/** Clear the boundary: the files the revert covered get the remembered tree's bytes back. Errors: `busy`, `invalid_input`. */
export async function unrevert(deps: RevertDeps, sessionId: string): Promise<Result<RevertResult>> {
  if (deps.busy(sessionId)) return fail('busy', 'The session is running a turn.', 'Stop the turn first.');
  const session = deps.store.getSession(sessionId);
  if (!session) return fail('invalid_input', `No session ${sessionId}.`, 'Pick a session from the list.');
  if (!session.revert) return fail('invalid_input', 'Nothing to unrevert: the session is not reverted.', 'Revert to a message first.');
  const files = filesOf(patchesAfter(deps.store.messages(sessionId), session.revert) ?? []);
  const report = files.length > 0 ? await deps.snapshot.revert([{ hash: session.revert.snapshot, files }]) : { restored: [], deleted: [], failed: [] };
  const updated = deps.store.updateSession(sessionId, { revert: null });
  return ok(result(updated, { applied: true, restored: report.restored, deleted: report.deleted }));
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
        store.removeParts(sessionId, msg.id, msg.parts.slice(Math.max(pi, 0)).map((p) => p.id));
        store.removeMessages(sessionId, later);
      } else {
        store.removeMessages(sessionId, [msg.id, ...later]);
      }
    }
    store.updateSession(sessionId, { revert: null });
  });
}

/** Revert to the last user message before the boundary (or the end); gives back its text. Error `invalid_input` when there is none. */
export async function undo(deps: RevertDeps, sessionId: string, options: RevertOptions = {}): Promise<Result<UndoResult>> {
  const session = deps.store.getSession(sessionId);
  const messages = deps.store.messages(sessionId);
  const limit = session?.revert ? messages.findIndex((m) => m.id === session.revert?.messageId) : messages.length;
  const target = messages.slice(0, limit < 0 ? messages.length : limit).reverse().find((m) => m.role === 'user');
  if (!target) return fail('invalid_input', 'Nothing to undo.', 'The session has no earlier turn.');
  const r = await revertTo(deps, sessionId, { messageId: target.id }, options);
  return r.ok ? ok({ ...r.value, text: deps.store.messageText(target.id) }) : r;
}

/** Move the boundary forward one turn, or unrevert when it is the last one. Error `invalid_input` when not reverted. */
export async function redo(deps: RevertDeps, sessionId: string, options: RevertOptions = {}): Promise<Result<RevertResult>> {
  const session = deps.store.getSession(sessionId);
  if (!session?.revert) return fail('invalid_input', 'Nothing to redo.', 'Redo follows an undo or revert.');
  const messages = deps.store.messages(sessionId);
  const at = messages.findIndex((m) => m.id === session.revert?.messageId);
  const next = messages.slice(at + 1).find((m) => m.role === 'user');
  if (!next) return unrevert(deps, sessionId);
  return revertTo(deps, sessionId, { messageId: next.id }, options);
}
