/**
 * Child process for revert-crash.test.ts: over and over, until it is SIGKILLed, it moves a session between its
 * turn and before it through the real service — mode `history`: revert to the turn's user message, then unrevert
 * (its history moves, the snapshot store's journaled writes, the session database); mode `review`: reject every
 * hunk of the turn, then undo that decision (review's journaled writes and its event log). After each complete
 * move it prints `done <ms>`. A move that reports a conflict or a failure stops it with an error (the test then
 * fails). argv: <dataDir> <sessionId> <messageId> <mode>.
 */
import { AgentService } from '../service';

const [dataDir, sessionId, messageId, mode] = process.argv.slice(2) as [string, string, string, string];

/** The turn as review names it: by its assistant message (the first step's on the timeline). */
function turnOf(svc: AgentService, sessionId: string): { kind: 'turn'; messageId: string } {
  const step = svc.review.timeline(sessionId).find((e) => e.kind === 'step');
  if (!step?.messageId) throw new Error('the session has no step');
  return { kind: 'turn', messageId: step.messageId };
}

/** One review move: reject every hunk of the session (its one turn) when none is rejected, else undo the decision in force. */
async function reviewMove(svc: AgentService): Promise<void> {
  const target = turnOf(svc, sessionId);
  const diff = await svc.review.diff(sessionId, target);
  if (!diff.ok) throw new Error(diff.error.message);
  const rejected = diff.value.files.some((f) => f.hunks.some((h) => h.state === 'rejected'));
  const r = rejected
    ? await svc.review.undo({ sessionId })
    : await svc.review.decide({ sessionId, target, action: 'reject' });
  if (!r.ok) throw new Error(r.error.message);
}

async function main(): Promise<void> {
  const opened = await AgentService.open({ dataDir });
  if (!opened.ok) throw new Error(opened.error.message);
  const svc = opened.value;
  for (;;) {
    const started = performance.now();
    if (mode === 'review') {
      await reviewMove(svc);
      process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
      continue;
    }
    const detail = svc.getSession(sessionId);
    if (!detail.ok) throw new Error(detail.error.message);
    const reverted = detail.value.session.revert !== undefined;
    const r = reverted ? await svc.unrevert(sessionId) : await svc.revert(sessionId, messageId);
    if (!r.ok) throw new Error(r.error.message);
    if (r.value.conflicts.length > 0 || r.value.skipped.length > 0) throw new Error(JSON.stringify(r.value));
    process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
