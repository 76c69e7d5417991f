/**
 * The question tool through the real loop and store: single choice, multiple choice, free answer, dismissed,
 * a reply that does not fit (refused, the question stays open), stopped, and interrupted by a restart (a crash
 * child killed while the question waits) — each asserted as the text the model is sent next.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { AgentService } from './service';
import { cleanupTemp, harness, tempDir } from './testing/fixtures';
import type { Harness } from './testing/fixtures';
import { runAndKill } from './testing/run-and-kill';
import { stepModel, toolResults } from './testing/step-model';
import type { QuestionReply } from './questions';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const OPTIONS = [{ label: 'SQLite' }, { label: 'Postgres', description: 'a server' }, { label: 'DuckDB' }];

/** Run a turn whose model asks `input`, answer it with `reply` when its part runs; the result text the model reads. */
async function askAndAnswer(input: Record<string, unknown>, reply: QuestionReply): Promise<string | undefined> {
  h = await harness();
  const s = h.newSession();
  h.svc.on((e) => {
    if (e.type === 'question.asked')
      expect(h?.svc.answerQuestion(s, e.partId, reply)).toEqual({ ok: true, value: undefined });
  });
  const { model, requests } = stepModel([{ calls: [{ toolName: 'question', input }] }, { text: 'thanks' }]);
  const r = await h.svc.runWithModel(s, model, 'set it up');
  expect(r.ok && r.value.finishReason).toBe('stop');
  return toolResults(requests[1] as never)[0]?.text;
}

describe('question tool', () => {
  it('single choice', async () => {
    expect(await askAndAnswer({ question: 'Which database?', options: OPTIONS }, { selected: ['Postgres'] })).toBe(
      'The user answered: Postgres',
    );
  });

  it('multiple choice: labels in the options’ order', async () => {
    const q = { question: 'Which?', options: OPTIONS, multiple: true };
    expect(await askAndAnswer(q, { selected: ['DuckDB', 'SQLite'] })).toBe('The user answered: SQLite, DuckDB');
  });

  it('free answer, alone or with a choice', async () => {
    expect(await askAndAnswer({ question: 'Name?' }, { text: ' landfall-db ' })).toBe(
      'The user answered: "landfall-db"',
    );
    await h?.close();
    expect(await askAndAnswer({ question: 'Which?', options: OPTIONS }, { selected: ['SQLite'], text: 'in WAL' })).toBe(
      'The user answered: SQLite; "in WAL"',
    );
  });

  it('dismissed: the model reads that the user did not answer', async () => {
    expect(await askAndAnswer({ question: 'Which?', options: OPTIONS }, { dismiss: true })).toBe(
      'Error (dismissed): The user dismissed the question without answering.\nDo not assume an answer: go on with what does not depend on it, or say what you need to know.',
    );
  });

  it('a reply that does not fit is refused and the question stays open', async () => {
    h = await harness();
    const s = h.newSession();
    const refused: string[] = [];
    h.svc.on((e) => {
      if (e.type !== 'question.asked') return;
      for (const bad of [{ selected: ['SQLite', 'DuckDB'] }, { selected: ['Oracle'] }, { text: 'x' }, {}]) {
        const r = h?.svc.answerQuestion(s, e.partId, bad);
        if (r && !r.ok) refused.push(`${r.error.code}: ${r.error.message}`);
      }
      h?.svc.answerQuestion(s, e.partId, { selected: ['DuckDB'] });
    });
    const q = { question: 'Which?', options: OPTIONS, custom: false };
    const { model, requests } = stepModel([{ calls: [{ toolName: 'question', input: q }] }, { text: 'ok' }]);
    await h.svc.runWithModel(s, model, 'go');
    expect(refused).toEqual([
      'invalid_input: This question takes one choice.',
      'invalid_input: Not an option: Oracle.',
      'invalid_input: This question takes no typed answer.',
      'invalid_input: Nothing was chosen or typed.',
    ]);
    expect(toolResults(requests[1] as never)[0]?.text).toBe('The user answered: DuckDB');
    const invalid = stepModel([{ calls: [{ toolName: 'question', input: { question: 'x', custom: false } }] }]);
    await h.svc.runWithModel(s, invalid.model, 'again');
    expect(toolResults(invalid.requests[1] as never).at(-1)?.text).toContain(
      'Give 1 to 4 options, or allow a free answer',
    );
  });

  it('stop cancels the question: interrupted, and it cannot be answered afterwards', async () => {
    h = await harness();
    const s = h.newSession();
    let partId = '';
    h.svc.on((e) => {
      if (e.type === 'question.asked') {
        partId = e.partId;
        h?.svc.stop(s);
      }
    });
    const { model } = stepModel([{ calls: [{ toolName: 'question', input: { question: 'Go?' } }] }]);
    const r = await h.svc.runWithModel(s, model, 'go');
    expect(r.ok && r.value.finishReason).toBe('aborted');
    const late = h.svc.answerQuestion(s, partId, { text: 'yes' });
    expect(!late.ok && late.error.code).toBe('invalid_input');
    const next = stepModel([{ text: 'ok' }]);
    await h.svc.runWithModel(s, next.model, 'again');
    expect(toolResults(next.requests[0] as never)[0]?.text).toBe(
      'Error (interrupted): the user stopped the turn while this tool ran.',
    );
  });

  it('open when Landfall was killed: answered interrupted on restart, never asked again', async () => {
    const dataDir = tempDir('q-crash-data');
    const root = tempDir('q-crash-proj');
    try {
      await runAndKill([dataDir, root, 'question']);
      const opened = await AgentService.open({ dataDir });
      if (!opened.ok) throw new Error(opened.error.message);
      const svc = opened.value;
      const session = svc.listSessions(svc.listProjects()[0]?.id as string)[0];
      const sid = session?.id as string;
      const view = svc.getSession(sid);
      const q = (view.ok ? view.value.messages.flatMap((m) => m.parts) : []).find(
        (p): p is Extract<Part, { type: 'tool' }> => p.type === 'tool' && p.tool === 'question',
      );
      expect([q?.state, q?.error?.code]).toEqual(['error', 'interrupted']);
      expect(svc.answerQuestion(sid, q?.id as string, { selected: ['SQLite'] }).ok).toBe(false);
      const next = stepModel([{ text: 'I will ask again if needed.' }]);
      await svc.runWithModel(sid, next.model, 'where were we?');
      expect(toolResults(next.requests[0] as never)).toEqual([
        {
          toolName: 'question',
          text: 'Error (interrupted): Interrupted: Landfall stopped while this tool was running; it was not re-run.',
        },
      ]);
      await svc.close();
    } finally {
      cleanupTemp(dataDir, root);
    }
  }, 90_000);
});
