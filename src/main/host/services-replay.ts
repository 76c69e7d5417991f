/**
 * Replay in the app: plays a recorded session (corpus format) through the real loop with the replay provider,
 * turn by turn, like `AgentService.replay` — but ATTENDED: permission questions wait for the user's answer
 * (the core's replay answers them "reject" because nobody watches a command-line replay). Base files missing from
 * the project are written from files.jsonl first; files already holding the base bytes are left alone; a file
 * holding anything else refuses the replay (`exists`, nothing written — agent/replay/seed.ts). A stop ends it.
 */
import { readFile } from 'node:fs/promises';
import { REPLAY_LOOP_LIMITS } from '../agent/loop-guard';
import { join } from 'node:path';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { AgentService } from '../agent/service';
import { ReplayModel } from '../agent/providers/replay';
import { loadCorpusSession, seedProject } from '../agent/replay/corpus';
import { planReplay } from '../agent/replay/plan';
import { overwriteRefusal, planSeed } from '../agent/replay/seed';

/** The recording's source.json: its `id` and the first turn's `prompt`, when it names them. */
async function readSource(dir: string): Promise<{ id?: string; prompt?: string }> {
  try {
    const json = JSON.parse(await readFile(join(dir, 'source.json'), 'utf8')) as { id?: unknown; prompt?: unknown };
    return {
      ...(typeof json.id === 'string' ? { id: json.id } : {}),
      ...(typeof json.prompt === 'string' ? { prompt: json.prompt } : {}),
    };
  } catch {
    return {};
  }
}

/** What to say as each turn's user message: the given text (first turn), else the turn's place in the recording. */
function turnText(i: number, total: number, id: string, first: string | undefined): string {
  if (i === 0 && first) return first;
  return `Continue the recorded session ${id} (turn ${i + 1} of ${total}).`;
}

/**
 * Loads the recording and returns the function that runs it (so a bad folder is an error before anything starts);
 * the run answers the first turn's failure to start (e.g. `busy`).
 * Errors: `file_not_found` / `invalid_input` from the corpus reader, `invalid_input` for an unknown session or a
 * base path outside the project, `exists` (data.files) when project files differ from the recording's base.
 */
export async function prepareReplay(
  svc: AgentService,
  sessionId: string,
  dir: string,
  firstText?: string,
): Promise<Result<() => Promise<Result<void>>>> {
  const view = svc.getSession(sessionId);
  if (!view.ok) return view;
  const project = svc.listProjects().find((p) => p.id === view.value.session.projectId);
  if (!project) return fail('invalid_input', `The project of session ${sessionId} is gone.`, 'Open the project again.');
  const corpus = await loadCorpusSession(dir);
  if (!corpus.ok) return corpus;
  const plan = planReplay(corpus.value.calls, 'recorded', new Set(corpus.value.files.map((f) => f.path)));
  if (plan.turns.length === 0)
    return fail(
      'invalid_input',
      `${dir} holds no call that can be replayed.`,
      'Pick a recording with read, edit or write calls.',
    );
  // never over the user's bytes: a file that differs from the base refuses the replay (the app has no force)
  const seed = await planSeed(project.root, corpus.value.files);
  if (!seed.ok) return seed;
  if (seed.value.differing.length > 0) {
    return overwriteRefusal(
      seed.value.differing.map((f) => f.path),
      "Replay into a folder without these files (or with the recording's versions), or move them aside first.",
    );
  }
  const toSeed = seed.value.missing;
  const source = await readSource(dir);
  const name = source.id ?? corpus.value.id;
  const first = firstText ?? source.prompt;
  const model = new ReplayModel(plan, `replay:${name}`);
  return ok(async () => {
    await seedProject(project.root, toSeed);
    for (let i = 0; i < plan.turns.length; i++) {
      const turn = plan.turns[i] ?? [];
      const r = await svc.runWithModel(sessionId, model, turnText(i, plan.turns.length, name, first), turn.length + 2, {
        limits: REPLAY_LOOP_LIMITS,
        holdQueue: true,
      });
      if (!r.ok) return r;
      if (r.value.finishReason === 'aborted' || r.value.finishReason === 'error') break;
    }
    return ok(undefined);
  });
}
