/**
 * `landfall run`'s question after a repetition stop (loop-question.ts), through the real service, store, tools and
 * bash (every permission on allow), a scripted model whose requests are recorded, and the real terminal reader
 * over a stream: on a terminal, `y` goes on (the next request ends with the continuation message), `n`, an empty
 * line and the end of the input stop here (nothing more is sent); a `y` typed while the agent worked is thrown
 * away, never taken as the answer; an unattended run (stdin not a terminal) is not asked, reads nothing, leaves
 * the stop waiting and says so.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../../shared/model';
import { continueText } from '../../agent/loop-decision';
import { messageText } from '../../agent/context/request-text';
import { harness } from '../../agent/testing/fixtures';
import type { Harness } from '../../agent/testing/fixtures';
import { stepModel } from '../../agent/testing/step-model';
import type { ScriptedStep } from '../../agent/testing/step-model';
import { askAfterLoopStops, loopDecisionFor, loopQuestionText } from './loop-question';
import type { EndedTurn } from './loop-question';
import { TerminalInput } from './terminal-input';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

type LoopStop = Extract<Part, { type: 'loop-stop' }>;
const SAME: ScriptedStep = {
  calls: [{ toolName: 'bash', input: { command: 'echo x >> count.txt', description: 'count' } }],
};
const stops = (h: Harness, s: string): LoopStop[] =>
  h.svc.store
    .messages(s)
    .flatMap((m) => m.parts)
    .filter((p): p is LoopStop => p.type === 'loop-stop');
const lines = (h: Harness): number => readFileSync(path.join(h.root, 'count.txt'), 'utf8').split('\n').length - 1;

/** A session stopped by the repetition rule, and the terminal run's pieces around it. */
async function stoppedRun(tty: boolean, typedDuringTurn = '') {
  const h = await harness();
  open.push(h);
  const saved = await h.svc.saveSettings({
    ...h.svc.getSettings(),
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  });
  if (!saved.ok) throw new Error(saved.error.message);
  writeFileSync(path.join(h.root, 'count.txt'), '');
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  // on a terminal the reader runs from the start of the run (session.ts), so type-ahead is caught
  const input = new TerminalInput(stdin);
  const s = h.newSession();
  const first = stepModel([SAME, SAME, SAME, SAME, SAME]);
  if (typedDuringTurn) stdin.write(typedDuringTurn);
  const r = await h.svc.runWithModel(s, first.model, 'count to ten');
  if (!r.ok) throw new Error(r.error.message);
  expect([r.value.finishReason, r.value.error?.code]).toEqual(['loop-detected', 'loop_detected']);
  const printed: string[] = [];
  const reports: EndedTurn[] = [];
  return { h, s, stdin, input, first: r.value, printed, reports };
}

type Run = Awaited<ReturnType<typeof stoppedRun>>;

/** Runs the question; `typed` is written once the question is on the screen (undefined: the input ends). */
async function ask(run: Run, tty: boolean, typed: string | undefined, next = stepModel([{ text: 'ok' }])) {
  const waiting = (): LoopStop | undefined => stops(run.h, run.s).find((p) => p.decision === undefined);
  const ended = await askAfterLoopStops(
    {
      sessionId: run.s,
      interactive: tty,
      waiting,
      answer: (partId, decision) => run.h.svc.answerLoop(run.s, partId, decision, { languageModel: next.model }),
      discardTypeAhead: () => run.input.discardTypeAhead(),
      line: () => run.input.line(),
      out: (text) => {
        run.printed.push(text);
        if (text.endsWith('[y/N]: ')) {
          if (typed === undefined) run.stdin.end();
          else run.stdin.write(typed);
        }
      },
      report: (r) => run.reports.push(r),
    },
    run.first,
  );
  run.input.close();
  return { ended, next };
}

describe('landfall run asks whether to go on after a repetition stop', () => {
  it('on a terminal, "y" goes on: the next request ends with the continuation message', async () => {
    const run = await stoppedRun(true);
    const [stop] = stops(run.h, run.s);
    const { ended, next } = await ask(run, true, 'y\n');
    expect(run.printed[0]).toBe(
      '\nStopped: the agent made the same call 5 times in a row:\n' +
        '  bash {"command":"echo x >> count.txt","description":"count"}\n' +
        '? Go on (the agent is told it was repeating itself)? [y/N]: ',
    );
    expect(next.requests).toHaveLength(1);
    expect(messageText(next.requests[0]?.prompt.at(-1))).toBe(continueText(stop as LoopStop));
    expect([ended.finishReason, ended.error]).toEqual(['stop', undefined]);
    expect(run.reports).toEqual([ended]);
    expect(stops(run.h, run.s).map((p) => p.decision)).toEqual(['continue']);
  });

  for (const [name, typed] of [
    ['"n"', 'n\n'],
    ['an empty line', '\n'],
    ['a word that is not yes', 'sure\n'],
    ['the end of the input', undefined],
  ] as const) {
    it(`on a terminal, ${name} stops here: nothing more is sent or run`, async () => {
      const run = await stoppedRun(true);
      const { ended, next } = await ask(run, true, typed);
      expect(next.requests).toHaveLength(0);
      expect(lines(run.h)).toBe(4);
      expect(ended).toBe(run.first);
      expect(run.printed.at(-1)).toBe('Stopped here.\n');
      expect(stops(run.h, run.s).map((p) => p.decision)).toEqual(['stop']);
    });
  }

  it('a "y" typed while the agent worked is thrown away, not taken as the answer', async () => {
    const run = await stoppedRun(true, 'y\n');
    const { next } = await ask(run, true, '\n');
    expect(run.printed[0]).toMatch(/^\n\(discarded 2 characters typed ahead\)\nStopped: the agent made/);
    expect(next.requests).toHaveLength(0);
    expect(stops(run.h, run.s).map((p) => p.decision)).toEqual(['stop']);
  });

  it('unattended (stdin not a terminal): not asked, nothing read, the stop stays waiting, and it says so', async () => {
    const run = await stoppedRun(false, 'y\n');
    const { ended, next } = await ask(run, false, 'y\n');
    expect(next.requests).toHaveLength(0);
    expect(ended).toBe(run.first);
    expect(run.input.discardTypeAhead()).toBe(2); // the piped "y" is still unread
    expect(run.printed).toEqual([
      `Not asked whether to go on: stdin is not a terminal (an unattended run). The turn stays stopped; the ` +
        `question waits in session ${run.s} — open it in Landfall to go on, or send a new message.\n`,
    ]);
    expect(stops(run.h, run.s).map((p) => p.decision)).toEqual([undefined]);
  });
});

describe('the terminal answer', () => {
  it('only y / yes (any case, spaces around) goes on', () => {
    const cont = ['y', 'Y', 'yes', ' YES '].map(loopDecisionFor);
    const stop = ['', 'n', 'no', 'yy', 'y es', 'go', undefined].map(loopDecisionFor);
    expect([...new Set(cont)]).toEqual(['continue']);
    expect([...new Set(stop)]).toEqual(['stop']);
  });

  it('a long input is cut on one line and says its length', () => {
    const part = {
      id: 'p',
      sessionId: 's',
      messageId: 'm',
      time: 1,
      type: 'loop-stop' as const,
      tool: 'write',
      input: { content: 'x'.repeat(1000) },
      repeats: 5,
    };
    const text = loopQuestionText(part, 0);
    expect(text.split('\n')).toHaveLength(4);
    expect(text).toContain(`… (${JSON.stringify(part.input).length} characters)`);
  });
});
