/**
 * Replaying a recorded corpus session through the real loop (issue 5): seed the project from files.jsonl (never
 * over a differing file unless forced, seed.ts), plan the calls (plan.ts), and run one turn per recorded turn
 * with the ReplayModel as the provider. The session is unattended meanwhile (a permission question is answered
 * "reject", never left waiting). The report lists every call's Landfall outcome next to the recorded one, and the
 * project's diff from before the first turn.
 */
import type { Result } from '../../../shared/errors';
import { REPLAY_LOOP_LIMITS } from '../loop-guard';
import { ok } from '../../../shared/errors';
import type { Part } from '../../../shared/model';
import type { ProjectRuntime } from '../project';
import { ReplayModel } from '../providers/replay';
import type { ReplayCallOutcome, ReplayOptions, ReplayReport, TurnResult } from '../service-types';
import type { AgentService } from '../service';
import path from 'node:path';
import { loadCorpusSession } from './corpus';
import { seedSafely } from './seed';
import type { SeedReport } from './seed';
import { planReplay } from './plan';

/** In-process hooks (not part of the JSON contract): tests and the benchmark look at the project between turns. */
export interface ReplayHooks {
  /** Called before turn `index` (0-based) starts, after the previous one ended. */
  beforeTurn?: (index: number) => Promise<void> | void;
  /** apply_patch's input field holding the patch text (default `patchText`). */
  patchField?: string;
}

function outcomeOf(part: Extract<Part, { type: 'tool' }> | undefined): { landfall: string; rung?: string } {
  if (!part) return { landfall: 'not_run' };
  if (part.state === 'completed') {
    const rung = part.metadata?.rung;
    return typeof rung === 'string' ? { landfall: 'ok', rung } : { landfall: 'ok' };
  }
  return { landfall: part.error?.code ?? part.state };
}

/**
 * Replay `dir` into the session. Errors: `file_not_found`/`invalid_input` for a bad corpus folder, `busy`,
 * `exists` when seeding would overwrite project files that differ from the base (nothing written; see seed.ts).
 * Failed tool calls are outcomes in the report, not errors.
 */
export async function replayCorpusSession(
  svc: AgentService,
  rt: ProjectRuntime,
  sessionId: string,
  dir: string,
  options: ReplayOptions,
  hooks: ReplayHooks = {},
): Promise<Result<ReplayReport>> {
  const corpus = await loadCorpusSession(dir);
  if (!corpus.ok) return corpus;
  let seed: SeedReport | undefined;
  if (options.seed !== false) {
    const seeded = await seedSafely(rt.project.root, corpus.value.files, {
      force: options.force === true,
      backupRoot: path.join(svc.options.dataDir, 'replay-backups'),
    });
    if (!seeded.ok) return seeded;
    seed = seeded.value;
  }
  const plan = planReplay(
    corpus.value.calls,
    options.mode,
    new Set(corpus.value.files.map((f) => f.path)),
    hooks.patchField,
  );
  const model = new ReplayModel(plan, `replay:${corpus.value.id}`);
  const start = await rt.snapshot.track();
  const userMessageIds: string[] = [];
  svc.setUnattended(sessionId, true);
  try {
    for (let i = 0; i < plan.turns.length; i++) {
      await hooks.beforeTurn?.(i);
      const turn = plan.turns[i] ?? [];
      const r: Result<TurnResult> = await svc.runWithModel(
        sessionId,
        model,
        `Replay turn ${i + 1} of ${plan.turns.length} of ${corpus.value.id}: calls ${turn[0]?.seq}–${turn[turn.length - 1]?.seq}.`,
        turn.length + 2,
        { limits: REPLAY_LOOP_LIMITS, holdQueue: true },
      );
      if (!r.ok) return r;
      userMessageIds.push(r.value.userMessageId);
      if (r.value.finishReason === 'aborted') break;
    }
  } finally {
    svc.setUnattended(sessionId, false);
  }
  const parts = new Map<string, Extract<Part, { type: 'tool' }>>();
  const view = svc.getSession(sessionId);
  if (view.ok)
    for (const m of view.value.messages) for (const p of m.parts) if (p.type === 'tool') parts.set(p.callId, p);
  const calls: ReplayCallOutcome[] = [];
  for (const c of plan.turns.flat()) {
    calls.push({
      seq: c.seq,
      tool: c.toolName,
      path: c.path,
      recorded: c.recorded,
      ...outcomeOf(parts.get(c.callId)),
      ...(c.synthetic ? { synthetic: true } : {}),
    });
  }
  for (const n of plan.notReplayed) calls.push({ seq: n.seq, tool: n.tool, recorded: n.recorded, landfall: 'skipped' });
  calls.sort((a, b) => a.seq - b.seq || Number(b.synthetic ?? false) - Number(a.synthetic ?? false));
  return ok({ sessionId, calls, finalDiff: await rt.snapshot.diff(start), userMessageIds, ...(seed ? { seed } : {}) });
}
