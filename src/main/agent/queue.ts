/**
 * The admission queue's runner (session/inbox.ts holds the rows): `send` admits at once and, when the session is
 * idle, starts draining — each queued message is promoted (exactly once, in the promotion's transaction) as the
 * next turn's user message, oldest first, until the queue is empty, a turn is stopped, or a turn fails (the rest
 * stay queued, shown, and run when the user resumes or sends again). While a turn runs, "send now" (steer)
 * messages are promoted at the next step boundary (loop.ts `steer`). Messages left queued by a crash or a restart
 * are not run by themselves: the user sees them queued and resumes.
 */
import type { Result } from '../../shared/errors';
import type { CoreEvent } from '../../shared/events';
import type { Message } from '../../shared/model';
import type { SessionStore } from '../session/store';
import { admit, editQueued, promote, queued, removeQueued } from '../session/inbox';
import type { InboxItem } from '../session/inbox';
import type { TurnResult } from './service-types';

/** What the runner needs from the service. */
export interface QueueHost {
  store: SessionStore;
  emit(e: CoreEvent): void;
  /** True while a turn (or a history move) holds the session. */
  busy(sessionId: string): boolean;
  /** Run one turn whose user message `promote` writes (AgentService.prompt with a promotion). */
  runPromoted(
    sessionId: string,
    promote: () => Result<{ message: Message; text: string }>,
  ): Promise<Result<TurnResult>>;
}

/** One runner per service. */
export class QueueRunner {
  private readonly draining = new Set<string>();
  constructor(private readonly host: QueueHost) {}

  /** Tell listeners what is queued now. */
  private changed(sessionId: string): void {
    const items = queued(this.host.store, sessionId).map(({ id, text, time, steer }) => ({
      id,
      sessionId,
      text,
      time,
      steer,
    }));
    this.host.emit({ type: 'queue.updated', sessionId, items });
  }

  /** Admit `text`; start draining when the session is idle. `state`: what happened to it right away. */
  send(sessionId: string, text: string, steer = false): InboxItem & { started: boolean } {
    const item = admit(this.host.store, sessionId, text, steer);
    this.changed(sessionId);
    const started = !this.host.busy(sessionId) && !this.draining.has(sessionId);
    if (started) void this.drain(sessionId);
    return { ...item, started };
  }

  /** Run what is queued (after a restart, a stop or a failed turn). False when nothing is queued or it runs already. */
  resume(sessionId: string): boolean {
    if (this.host.busy(sessionId) || this.draining.has(sessionId)) return false;
    if (queued(this.host.store, sessionId).length === 0) return false;
    void this.drain(sessionId);
    return true;
  }

  /**
   * A turn of the session ended (any turn: sent directly, replayed, or one of the queue's own): when it ended
   * normally and the queue is not already draining, the messages queued meanwhile run next.
   */
  turnEnded(sessionId: string, r: Result<TurnResult>): void {
    if (!r.ok || r.value.finishReason === 'aborted' || r.value.error !== undefined) return;
    if (this.draining.has(sessionId) || queued(this.host.store, sessionId).length === 0) return;
    void this.drain(sessionId);
  }

  /** The queued messages of a session, oldest first. */
  list(sessionId: string): InboxItem[] {
    return queued(this.host.store, sessionId);
  }

  /** Edit a queued message (text, "send now"); `conflict` once promoted. */
  edit(sessionId: string, id: string, change: { text?: string; steer?: boolean }): Result<InboxItem> {
    const r = editQueued(this.host.store, sessionId, id, change);
    if (r.ok) this.changed(sessionId);
    return r;
  }

  /** Remove a queued message; `conflict` once promoted. */
  remove(sessionId: string, id: string): Result<void> {
    const r = removeQueued(this.host.store, sessionId, id);
    if (r.ok) this.changed(sessionId);
    return r;
  }

  /** The loop's step-boundary hook for a session: promote its "send now" messages; true when any was. */
  steerFor(sessionId: string): () => boolean {
    return () => {
      const items = queued(this.host.store, sessionId, true);
      let promoted = 0;
      for (const it of items) if (promote(this.host.store, it.id).ok) promoted++;
      if (items.length > 0) this.changed(sessionId);
      return promoted > 0;
    };
  }

  /** Promote and run queued messages one turn each, oldest first (module docstring says when it stops). */
  private async drain(sessionId: string): Promise<void> {
    this.draining.add(sessionId);
    try {
      for (;;) {
        const next = queued(this.host.store, sessionId)[0];
        if (!next) return;
        const r = await this.host.runPromoted(sessionId, () => {
          const p = promote(this.host.store, next.id);
          this.changed(sessionId);
          return p;
        });
        if (!r.ok) {
          // the turn could not start (no provider, no key): say so; the message stays queued
          const { code, message, hint } = r.error;
          this.host.emit({ type: 'session.state', sessionId, state: 'error', error: { code, message, hint } });
          return;
        }
        if (r.value.finishReason === 'aborted' || r.value.error !== undefined) return;
      }
    } finally {
      this.draining.delete(sessionId);
    }
  }
}

export type { InboxItem };
