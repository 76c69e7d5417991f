/** Sessions slice: the open project's sessions and the selected one (its detail is loaded into the chat slice). */
import { call } from '../rpc';
import { readImportFile, uploadImport } from './import-upload';
import type { Session } from '../../../shared/contract';
import type { SessionsSlice, Slice } from './types';
import type { RunningTurn } from '../../../shared/running-schemas';
import { writePlace } from './place';

/** The list with `session` in place of the row of the same id (or added), newest change first. */
export function withSession(sessions: readonly Session[], session: Session): Session[] {
  return [session, ...sessions.filter((s) => s.id !== session.id)].sort((a, b) => b.updated - a.updated);
}

/**
 * The running map (session id → turn start, ms since the epoch) from `sessions.running`'s answer: exactly the
 * sessions listed, each with the start this window saw if it had one, else the start main recorded.
 */
export function runningFrom(turns: readonly RunningTurn[], had: Record<string, number>): Record<string, number> {
  const running: Record<string, number> = {};
  for (const t of turns) running[t.sessionId] = had[t.sessionId] ?? t.since;
  return running;
}

export const createSessionsSlice: Slice<SessionsSlice> = (set, get) => ({
  sessions: [],
  sessionId: null,
  async loadSessions() {
    const project = get().project;
    if (!project) return;
    const [r, turns] = await Promise.all([
      call('sessions.list', { projectId: project.id }),
      call('sessions.running', {}),
    ]);
    if (r.ok) set({ sessions: [...r.value].sort((a, b) => b.updated - a.updated) });
    else get().showError(r.error);
    // The database's running turns are the truth after a reload or reconnect (any session, any process); an
    // entry this window already had keeps its start time.
    if (turns.ok) set({ running: runningFrom(turns.value, get().running) });
  },
  async newSession() {
    const project = get().project;
    if (!project) return;
    const r = await call('sessions.create', { projectId: project.id });
    if (!r.ok) return get().showError(r.error);
    get().clearSearch();
    set({ sessions: [r.value, ...get().sessions.filter((s) => s.id !== r.value.id)] });
    await get().selectSession(r.value.id);
  },
  async selectSession(id) {
    set({
      sessionId: id,
      messages: [],
      asks: [],
      busy: false,
      screen: 'chat',
      historyNotice: null,
      overwriteAsked: false,
      revertPreview: null,
      // One column (phone width): picking a session shows its chat.
      ...(get().layout === 'phone' ? { tab: 'chat' as const } : {}),
      contextView: null,
      talk: null,
      queued: [],
      focusMessage: null,
    });
    writePlace({ sessionId: id });
    void get().openReview(id);
    void get().loadTalk();
    const r = await call('sessions.get', { sessionId: id });
    if (!r.ok) return get().showError(r.error);
    if (get().sessionId !== id) return;
    const running = { ...get().running };
    if (r.value.busy) running[id] ??= Date.now();
    else delete running[id];
    set({
      messages: r.value.messages,
      busy: r.value.busy,
      asks: r.value.asks,
      queued: r.value.queued ?? [],
      running,
      turnStart: running[id] ?? 0,
    });
    void get().loadContext();
  },
  async renameSession(id, title) {
    const r = await call('sessions.rename', { sessionId: id, title });
    if (!r.ok) return get().showError(r.error);
    set({ sessions: get().sessions.map((s) => (s.id === id ? r.value : s)) });
  },
  async deleteSession(id) {
    const r = await call('sessions.delete', { sessionId: id });
    if (!r.ok) return get().showError(r.error);
    set({ sessions: get().sessions.filter((s) => s.id !== id) });
    if (get().sessionId !== id) return;
    set({ sessionId: null, messages: [], asks: [], busy: false, revertPreview: null });
    void get().openReview(null);
  },
  async exportSession(id) {
    const r = await call('sessions.export', { sessionId: id });
    if (!r.ok) {
      get().showError(r.error);
      return null;
    }
    return r.value;
  },
  importing: null,
  async importSession(file) {
    const project = get().project;
    if (!project || get().importing) return;
    const text = await readImportFile(file);
    if (!text.ok) return get().showError(text.error);
    set({ importing: { sent: 0, total: text.value.length } });
    const r = await uploadImport(project.id, text.value, (importing) => set({ importing })).finally(() =>
      set({ importing: null }),
    );
    if (!r.ok) return get().showError(r.error);
    await get().loadSessions();
    await get().selectSession(r.value.id);
  },
});
