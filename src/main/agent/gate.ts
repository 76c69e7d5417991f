/**
 * The permission gate: what tools call as `ctx.ask` (tools/types.ts PermissionAsk). It judges a request against
 * the configured rules and this session's "always" grants (permission.ts); a request that needs the user becomes
 * a `permission.asked` event (with the preview diff) and waits for `answer()`. Answers: once, always (saved as a
 * grant for the rest of the session), reject (with an optional reason the model reads). A stop rejects every
 * question still waiting.
 */
import type { PermissionAnswer, PermissionAsk, PermissionRequest } from '../tools/types';
import type { SessionStore } from '../session/store';
import { newId } from '../session/ids';
import { evaluatePermission, grantFor } from './permission';
import type { PermissionGrant, PermissionRule } from './permission';
import type { PermissionReply } from './service-types';

interface Waiting {
  sessionId: string;
  request: PermissionRequest;
  resolve: (a: PermissionAnswer) => void;
}

/** One gate per service: rules from settings (read on every ask), grants and waiting questions per session. */
export class PermissionGate {
  private readonly grants = new Map<string, PermissionGrant[]>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly unattended = new Set<string>();

  /** `rules()` is read on every request, so saved settings apply at once. */
  constructor(
    private readonly store: SessionStore,
    private readonly rules: () => PermissionRule[],
  ) {}

  /** The `ask` function for one session's tool context; `partId` ties the question to the tool part. */
  askFor(sessionId: string, partId?: string): PermissionAsk {
    return (request) => this.ask(sessionId, request, partId);
  }

  private ask(sessionId: string, request: PermissionRequest, partId?: string): Promise<PermissionAnswer> {
    const action = evaluatePermission(this.rules(), this.grants.get(sessionId) ?? [], request);
    if (action === 'allow') return Promise.resolve({ allow: true });
    if (action === 'deny') {
      return Promise.resolve({
        allow: false,
        reason: `A configured rule denies ${request.permission} for ${request.patterns.join(', ') || request.tool}.`,
      });
    }
    if (this.unattended.has(sessionId)) {
      return Promise.resolve({
        allow: false,
        reason: `Nobody is there to answer (unattended run): ${request.title} needs the user's permission.`,
      });
    }
    const requestId = newId('per');
    return new Promise((resolve) => {
      this.waiting.set(requestId, { sessionId, request, resolve });
      this.store.logPermission({
        type: 'permission.asked',
        requestId,
        sessionId,
        partId,
        tool: request.tool,
        permission: request.permission,
        patterns: request.patterns,
        title: request.title,
        preview: request.preview,
      });
    });
  }

  /** Questions waiting for an answer (for a UI that (re)connects). */
  pending(sessionId?: string): { requestId: string; sessionId: string; request: PermissionRequest }[] {
    return [...this.waiting.entries()]
      .filter(([, w]) => sessionId === undefined || w.sessionId === sessionId)
      .map(([requestId, w]) => ({ requestId, sessionId: w.sessionId, request: w.request }));
  }

  /** Answer a waiting question. Returns false when no such question waits (answered already, or stopped). */
  answer(requestId: string, reply: PermissionReply): boolean {
    const w = this.waiting.get(requestId);
    if (!w) return false;
    this.waiting.delete(requestId);
    if (reply.answer === 'always') {
      const list = this.grants.get(w.sessionId) ?? [];
      list.push(grantFor(w.request));
      this.grants.set(w.sessionId, list);
    }
    this.store.logPermission({
      type: 'permission.answered',
      requestId,
      sessionId: w.sessionId,
      answer: reply.answer,
      reason: reply.reason,
    });
    if (reply.answer === 'reject') {
      // the tools phrase the refusal ("The user said: …"); the reason is passed on as the user wrote it
      w.resolve(reply.reason ? { allow: false, reason: reply.reason } : { allow: false });
    } else {
      w.resolve({ allow: true });
    }
    return true;
  }

  /** Reject every question of a session (stop). */
  cancel(sessionId: string): void {
    for (const [id, w] of this.waiting) {
      if (w.sessionId !== sessionId) continue;
      this.answer(id, { answer: 'reject', reason: 'the turn was stopped' });
    }
  }

  /** In an unattended session (replay, scripts) a question is answered "reject" at once instead of waiting. */
  setUnattended(sessionId: string, on: boolean): void {
    if (on) this.unattended.add(sessionId);
    else this.unattended.delete(sessionId);
  }

  /** Forget a session's "always" grants (session deleted). */
  forget(sessionId: string): void {
    this.grants.delete(sessionId);
  }
}
