/**
 * Event wiring: subscribes once (from boot, never from a slice initialiser) and routes each pushed event to the
 * store. Streamed deltas are the hot path: they are buffered and applied once per animation frame (DESIGN §8:
 * coalesced at ~16 ms), and any other event of the session first flushes the buffer so order is kept. Events that
 * change what review shows — a snapshot taken at a step boundary, the session row changed (a revert moved its
 * boundary), a turn that ended, messages removed — also tell the review slice (`reviewChanged`, one reload per
 * burst); text deltas never do.
 */
import { on, onReconnect } from '../rpc';
import type { Store } from './types';
import type { EventPayload } from '../../../shared/contract';
import { runCommand } from './commands';
import { withSession } from './sessions-slice';

type Get = () => Store;

/** The file a completed tool call wrote (its commit diff's `file`), so an open editor tab can follow it. */
function writtenFile(part: EventPayload<'part.updated'>['part']): string | undefined {
  if (part.type !== 'tool' || part.state !== 'completed') return undefined;
  const diff = part.metadata?.['diff'] as { file?: unknown } | undefined;
  return typeof diff?.file === 'string' ? diff.file : undefined;
}

/**
 * The running map and the per-session turn errors after a session.state event of ANY session: busy marks it
 * running (the list's indicator) and clears its last error; an ended turn unmarks it; an error other than the
 * user's own stop is kept for that session's transcript (never a banner over another session).
 */
export function sessionRunning(
  store: Pick<Store, 'running' | 'turnErrors'>,
  e: { sessionId: string; state: 'idle' | 'busy' | 'error'; error?: { code: string; message: string; hint: string } },
): Pick<Store, 'running' | 'turnErrors'> {
  const running = { ...store.running };
  const turnErrors = { ...store.turnErrors };
  if (e.state === 'busy') {
    running[e.sessionId] = Date.now();
    delete turnErrors[e.sessionId];
  } else delete running[e.sessionId];
  if (e.error && e.error.code !== 'interrupted') turnErrors[e.sessionId] = e.error;
  return { running, turnErrors };
}
type Set = (partial: Partial<Store>) => void;
type Buffer = Map<string, { messageId: string; text: string; reasoning: boolean }>;

/** Subscribes the store to every contract event. Returns the unsubscribe function. */
export function connectEvents(get: Get, set: Set): () => void {
  let buffer: Buffer = new Map();
  let frame = 0;
  const flush = (): void => {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    if (buffer.size === 0) return;
    const deltas = buffer;
    buffer = new Map();
    get().applyDeltas(deltas);
  };
  const delta = (
    e: { sessionId: string; messageId: string; partId: string; delta: string },
    reasoning: boolean,
  ): void => {
    if (e.sessionId !== get().sessionId) return;
    const entry = buffer.get(e.partId);
    if (entry) entry.text += e.delta;
    else buffer.set(e.partId, { messageId: e.messageId, text: e.delta, reasoning });
    if (!frame) frame = requestAnimationFrame(flush);
  };
  const mine = (sessionId: string): boolean => sessionId === get().sessionId;
  const offs = [
    onReconnect(() => {
      void get().loadProjects();
      void get().loadSessions();
      const id = get().sessionId;
      if (id)
        void get()
          .selectSession(id)
          .then(() => get().refreshReview());
    }),
    on('text.delta', (e) => delta(e, false)),
    on('reasoning.delta', (e) => delta(e, true)),
    on('part.updated', (e) => {
      const wrote = writtenFile(e.part);
      if (wrote) void get().filesChanged([wrote]);
      if (!mine(e.part.sessionId)) return;
      flush();
      get().applyEvent(e);
      if (e.part.type === 'step-finish') void get().loadContext();
    }),
    on('message.added', (e) => {
      if (!mine(e.message.sessionId)) return;
      flush();
      get().applyEvent(e);
    }),
    on('part.removed', (e) => {
      if (!mine(e.sessionId)) return;
      flush();
      get().applyEvent(e);
    }),
    on('message.removed', (e) => {
      if (!mine(e.sessionId)) return;
      flush();
      get().applyEvent(e);
      get().reviewChanged(e.sessionId);
    }),
    on('snapshot.added', (e) => {
      if (mine(e.sessionId)) get().reviewChanged(e.sessionId);
      void get().filesChanged(e.files);
    }),
    on('permission.asked', (e) => {
      if (mine(e.sessionId)) set({ asks: [...get().asks.filter((a) => a.requestId !== e.requestId), e] });
    }),
    on('permission.answered', (e) => {
      if (mine(e.sessionId)) set({ asks: get().asks.filter((a) => a.requestId !== e.requestId) });
    }),
    on('session.state', (e) => {
      set(sessionRunning(get(), e));
      if (!mine(e.sessionId)) return;
      flush();
      set({ busy: e.state === 'busy', ...(e.state === 'busy' ? { turnStart: Date.now() } : { asks: [] }) });
      if (e.state === 'idle') get().reviewChanged(e.sessionId);
      if (e.state !== 'busy') void get().loadContext();
    }),
    on('queue.updated', (e) => {
      if (mine(e.sessionId)) set({ queued: e.items });
    }),
    on('session.updated', (e) => {
      if (e.session.projectId === get().project?.id) set({ sessions: withSession(get().sessions, e.session) });
      if (mine(e.session.id)) get().reviewChanged(e.session.id);
    }),
    on('app.command', (e) => runCommand(get(), e.command)),
    on('settings.changed', (e) => void get().settingsChanged(e.version)),
    on('session.deleted', (e) => {
      set({ sessions: get().sessions.filter((s) => s.id !== e.sessionId) });
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
