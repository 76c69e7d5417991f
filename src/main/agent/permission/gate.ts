/**
 * The permission gate: what tools call as `ctx.ask` (tools/types.ts AskPermission). It judges a request against
 * the rules in force at this very call (read from settings.json on every ask, settings/live.ts) and this
 * session's "always" grants (rules.ts); a request that needs the user becomes a `permission.asked` event
 * (with the preview diff, what "always" would allow, and why it was asked) and waits for `answer()`. Answers:
 * once, always (saved as a grant for the rest of the session, always.ts), reject (with an optional reason the
 * model reads). A stop rejects every question still waiting.
 *
 * The gate is the one record of the questions still waiting: `pending()` answers each as the very event that
 * asked it (sequence number included), so a window that reconnects is shown exactly what is open, oldest first,
 * with no second copy kept from the event stream.
 *
 * Bash lines are parsed first (bash-command.ts); a line that reaches into a `.git` folder is asked as `git_dir`
 * (no rule or grant covers it, no "always"), and a line naming a file the model may not see is asked with that
 * reason. While settings.json is broken, every request that is not denied is asked, and the prompt says so.
 */
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import type { PermissionAsk, PermissionReply } from '../../../shared/permission-schemas';
import type { AskPermission, PermissionAnswer, PermissionRequest, RevealGuard } from '../../tools/types';
import type { SessionStore } from '../../session/store';
import { newId } from '../../session/ids';
import { alwaysOffer, grantFromAnswer, grantText } from './always';
import { analyseBash } from './bash-command';
import type { BashAnalysis } from './bash-command';
import { bashFacts } from './bash-facts';
import { decidePermission } from './rules';
import type { PermissionGrant, PermissionVerdict } from './rules';
import { revealGuard } from './reveal-policy';
import type { RulesInForce } from '../settings/live';

/** A place a recorded session asks the user (replay/corpus.ts reads them from the recording's source.json). */
export interface AskMark {
  permission: string;
  /** Must be one of the request's patterns exactly (for edits: the root-relative path). */
  pattern: string;
  /** Shown with the question: why the replay asks here. */
  why: string;
}

interface Waiting {
  sessionId: string;
  request: PermissionRequest;
  /** The event that asked it (what `pending()` answers). */
  asked: PermissionAsk;
  bash?: BashAnalysis;
  resolve: (a: PermissionAnswer) => void;
}

/** A request after the gate looked at it: possibly turned into `git_dir`, with its verdict and bash analysis. */
interface Judged {
  request: PermissionRequest;
  verdict: PermissionVerdict;
  bash?: BashAnalysis;
}

/** One gate per service: rules read on every ask, grants and waiting questions per session. */
export class PermissionGate {
  private readonly grants = new Map<string, PermissionGrant[]>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly unattended = new Set<string>();
  /** A recorded session's "ask here" marks (replay/run.ts), per session; each is used up by the question it asks. */
  private readonly marks = new Map<string, AskMark[]>();

  /** `rules()` is called on every request, so rules edited in settings.json apply at the next tool call. */
  constructor(
    private readonly store: SessionStore,
    private readonly rules: () => RulesInForce | Promise<RulesInForce>,
  ) {}

  /** The `ask` function for one session's tool context; `partId` ties the question to the tool part. */
  askFor(sessionId: string, partId?: string, root?: string): AskPermission {
    return (request) => this.ask(sessionId, request, partId, root);
  }

  /**
   * Which files the model may not see, by the read rules in force now and this session's grants; with `root`
   * (the project folder) hard links of denied files are withheld too.
   */
  async guardFor(sessionId: string, root?: string): Promise<RevealGuard> {
    const inForce = await this.rules();
    return revealGuard(inForce.rules, this.grants.get(sessionId) ?? [], root);
  }

  private async judge(sessionId: string, request: PermissionRequest, root?: string): Promise<Judged> {
    const inForce = await this.rules();
    const grants = this.grants.get(sessionId) ?? [];
    const broken = inForce.broken ? [inForce.broken] : [];
    if (request.permission !== 'bash')
      return { request, verdict: withBroken(decidePermission(inForce.rules, grants, request), broken) };
    const bash = await analyseBash(request.patterns.join('\n'));
    const facts = await bashFacts(bash, root, revealGuard(inForce.rules, grants, root));
    if (facts.gitDir.length > 0) {
      const denied = decidePermission(inForce.rules, [], request, bash);
      const asGit: PermissionRequest = { ...request, permission: 'git_dir' };
      const verdict: PermissionVerdict =
        denied.action === 'deny' ? denied : decidePermission(inForce.rules, [], asGit, undefined, facts.gitDir);
      return { request: asGit, verdict, bash };
    }
    const verdict = decidePermission(inForce.rules, grants, request, bash, facts.withheld);
    return { request, verdict: withBroken(verdict, broken), bash };
  }

  private async ask(
    sessionId: string,
    asked: PermissionRequest,
    partId?: string,
    root?: string,
  ): Promise<PermissionAnswer> {
    const judged = await this.judge(sessionId, asked, root);
    const { request, bash } = judged;
    const verdict = anyway(judged.verdict, asked.askAnyway ?? this.takeMark(sessionId, request, judged.verdict));
    if (verdict.action === 'allow') return { allow: true };
    if (verdict.action === 'deny')
      return {
        allow: false,
        reason: `A configured rule denies ${request.permission} for ${request.patterns.join(', ') || request.tool}${verdict.reasons.length ? ` (${verdict.reasons.join('; ')})` : ''}.`,
      };
    if (this.unattended.has(sessionId))
      return {
        allow: false,
        reason: `Nobody is there to answer (unattended run): ${request.title} needs the user's permission.`,
      };
    const requestId = newId('per');
    return new Promise((resolve) => {
      // one transaction: the question is kept before its event goes out (events leave when it commits), so a
      // listener that asks for the pending questions already sees it
      this.store.tx(() => {
        const asked = this.store.logPermission({
          type: 'permission.asked',
          requestId,
          sessionId,
          partId,
          tool: request.tool,
          permission: request.permission,
          patterns: request.patterns,
          title: request.title,
          preview: request.preview,
          always: alwaysOffer(request, bash),
          reasons: verdict.reasons,
        });
        this.waiting.set(requestId, { sessionId, request, asked, ...(bash ? { bash } : {}), resolve });
      });
    });
  }

  /**
   * Questions waiting for an answer, oldest first, each as the `permission.asked` event that asked it — of one
   * session, or of all. What a window that (re)connects shows.
   */
  pending(sessionId?: string): PermissionAsk[] {
    return [...this.waiting.values()]
      .filter((w) => sessionId === undefined || w.sessionId === sessionId)
      .map((w) => w.asked);
  }

  /**
   * Answer a waiting question. Errors `invalid_input`: no such question waits (answered already, or stopped), or
   * an "always" with a pattern that is not allowed for it (always.ts) — the question then stays open.
   */
  answer(requestId: string, reply: PermissionReply): Result<void> {
    const w = this.waiting.get(requestId);
    if (!w)
      return fail(
        'invalid_input',
        `No permission question ${requestId} is waiting.`,
        'It was answered already or the turn was stopped.',
      );
    let granted: string[] | undefined;
    if (reply.answer === 'always') {
      const grant = grantFromAnswer(w.request, w.bash, reply.pattern);
      if (!grant.ok) return grant;
      const list = this.grants.get(w.sessionId) ?? [];
      list.push(grant.value);
      this.grants.set(w.sessionId, list);
      granted = grantText(grant.value);
    }
    this.waiting.delete(requestId);
    this.store.logPermission({
      type: 'permission.answered',
      requestId,
      sessionId: w.sessionId,
      answer: reply.answer,
      reason: reply.reason,
      ...(granted ? { granted } : {}),
    });
    if (reply.answer === 'reject') {
      // the tools phrase the refusal ("The user said: …"); the reason is passed on as the user wrote it
      w.resolve(reply.reason ? { allow: false, reason: reply.reason } : { allow: false });
    } else {
      w.resolve(w.request.permission === 'git_dir' ? { allow: true, gitDir: true } : { allow: true });
    }
    return ok(undefined);
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

  /**
   * While an attended replay of a recording written for Landfall runs: requests of `sessionId` that a mark names
   * (same permission, the pattern among the request's) are asked although the rules allow them — once per mark.
   * A rule that denies still denies. `null` clears the marks (the replay ended).
   */
  setAskMarks(sessionId: string, marks: readonly AskMark[] | null): void {
    if (marks && marks.length > 0) this.marks.set(sessionId, [...marks]);
    else this.marks.delete(sessionId);
  }

  /** The reason of the first mark naming `request` when the verdict is allow (the mark is used up), else undefined. */
  private takeMark(sessionId: string, request: PermissionRequest, verdict: PermissionVerdict): string | undefined {
    const marks = this.marks.get(sessionId);
    if (!marks || verdict.action !== 'allow') return undefined;
    const i = marks.findIndex((m) => m.permission === request.permission && request.patterns.includes(m.pattern));
    if (i < 0) return undefined;
    const [mark] = marks.splice(i, 1);
    return mark?.why;
  }

  /** Forget a session's "always" grants (session deleted). */
  forget(sessionId: string): void {
    this.grants.delete(sessionId);
  }
}

/** A request marked `askAnyway` (a read-only mode) is asked where the rules allow it; deny stays deny. */
function anyway(verdict: PermissionVerdict, why: string | undefined): PermissionVerdict {
  if (why === undefined || verdict.action !== 'allow') return verdict;
  return { action: 'ask', reasons: [...verdict.reasons, why] };
}

/** While settings.json is broken, nothing is allowed without the user: `allow` becomes `ask`, with the reason. */
function withBroken(verdict: PermissionVerdict, broken: string[]): PermissionVerdict {
  if (broken.length === 0 || verdict.action !== 'allow') return verdict;
  return { action: 'ask', reasons: [...verdict.reasons, ...broken] };
}
