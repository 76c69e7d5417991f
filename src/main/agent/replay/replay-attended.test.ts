/**
 * The one replay driver in its two modes (run.ts). Attended (the app): only missing base files are seeded, a file
 * holding other bytes refuses the replay before anything is written (trial: a replay replaced the user's
 * hydra/utils.py), the first turn speaks the recording's own prompt, and permission questions WAIT for the user —
 * they are what the gate reports as pending. Unattended (the command line): the same questions are answered
 * "reject" at once and nobody is asked. Real service (SQLite, snapshot store) in temp folders, real recordings.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../shared/events';
import { harness, SESSIONS_DIR } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { fileBytes, loadCorpusSession } from './corpus';
import { SEED_REFUSAL_HINT } from './seed';

const HYDRA = path.join(SESSIONS_DIR, 'swea-hydra-1915-kimik2');
const SAMPLE = path.resolve(process.cwd(), 'resources/sample/recording');
/** Words streamed 1 ms apart instead of REPLAY_PACE_MS: the same stream, less waiting. */
const FAST = { paceMs: 1 };
const ASK_EDITS = { permission: 'edit', pattern: '*', action: 'ask' };
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The service's settings with `rules`, written to settings.json (the gate reads it at the next tool call). */
function writeRules(x: Harness, rules: unknown[]): void {
  const settings = { ...x.svc.getSettings(), permissions: rules };
  writeFileSync(path.join(x.dataDir, 'settings.json'), JSON.stringify(settings, null, 2));
}

describe('attended replay (the app)', () => {
  it('a differing existing file refuses with `exists`; nothing is written, no turn starts', async () => {
    h = await harness();
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), 'mine\n');
    const s = h.newSession();
    const r = await h.svc.startReplay(s, HYDRA, { mode: 'recorded', attended: true }, FAST);
    expect(!r.ok && [r.error.code, r.error.data?.files, r.error.hint]).toEqual([
      'exists',
      ['hydra/utils.py'],
      SEED_REFUSAL_HINT,
    ]);
    expect(readFileSync(path.join(h.root, 'hydra/utils.py'), 'utf8')).toBe('mine\n');
    expect(existsSync(path.join(h.root, 'hydra/_internal/utils.py'))).toBe(false);
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.messages).toEqual([]);
  });

  it('an existing file with the base bytes is no refusal; missing ones are written and the replay runs', async () => {
    h = await harness();
    const corpus = await loadCorpusSession(HYDRA);
    if (!corpus.ok) throw new Error(corpus.error.message);
    const base = corpus.value.files.find((f) => f.path === 'hydra/utils.py');
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), fileBytes(base as never));
    const s = h.newSession();
    const r = await h.svc.startReplay(s, HYDRA, { mode: 'recorded', attended: true }, FAST);
    if (!r.ok) throw new Error(r.error.message);
    const done = await r.value.done;
    expect(done.ok).toBe(true);
    expect(existsSync(path.join(h.root, 'hydra/_internal/utils.py'))).toBe(true);
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.messages.length).toBeGreaterThan(0);
  }, 60_000);

  it('answers once the first turn runs; its questions wait and are the pending ones; turns read as a conversation', async () => {
    h = await harness();
    const x = h;
    writeRules(x, [ASK_EDITS]);
    const s = x.newSession();
    const asked: string[] = [];
    const pendingWhenAsked: string[][] = [];
    x.svc.on((e: CoreEvent) => {
      if (e.type !== 'permission.asked' || e.sessionId !== s) return;
      asked.push(e.patterns.join(','));
      pendingWhenAsked.push(x.svc.pendingPermissions(s).map((p) => p.requestId));
      // a person answering: the question stays open until then (attended), as the gate reports
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer: 'once' }));
    });
    const r = await x.svc.startReplay(s, SAMPLE, { mode: 'recorded', attended: true }, FAST);
    if (!r.ok) throw new Error(r.error.message);
    const first = r.value.first;
    expect(first && x.svc.isBusy(s)).toBe(true);
    const view = x.svc.getSession(s);
    const user = view.ok ? view.value.messages.find((m) => m.id === first?.userMessageId) : undefined;
    expect(user?.parts[0]).toMatchObject({
      type: 'text',
      text: 'Add a --shout flag to the greeter and a test for it.',
    });
    const done = await r.value.done;
    if (!done.ok) throw new Error(done.error.message);
    expect(asked).toEqual(['src/greet.js', 'src/cli.js', 'test/shout.test.js', 'README.md']);
    expect(pendingWhenAsked.every((ids) => ids.length === 1)).toBe(true);
    expect(done.value.calls.filter((c) => c.landfall !== 'ok')).toEqual([]);
    expect(done.value.userMessageIds).toHaveLength(2);
    expect(x.svc.store.messageText(done.value.userMessageIds[1] as string)).toBe(
      'Continue the recorded session greeter-shout (turn 2 of 2).',
    );
    expect(x.svc.pendingPermissions(s)).toEqual([]);
  }, 60_000);
});

describe('the first-run tour (attended, `tour`)', () => {
  /** Plays the sample as the first-run tour (or not), answering every question `answer`; what was asked, streamed. */
  async function tour(on: boolean, answer: 'once' | 'reject' = 'once') {
    h = await harness();
    const x = h;
    const s = x.newSession();
    const asked: { patterns: string; reasons: string[] }[] = [];
    const deltas: string[] = [];
    x.svc.on((e: CoreEvent) => {
      if (e.type === 'text.delta' && e.sessionId === s) deltas.push(e.delta);
      if (e.type !== 'permission.asked' || e.sessionId !== s) return;
      asked.push({ patterns: e.patterns.join(','), reasons: e.reasons ?? [] });
      queueMicrotask(() => x.svc.answerPermission(e.requestId, { answer }));
    });
    const r = await x.svc.startReplay(
      s,
      SAMPLE,
      { mode: 'recorded', attended: true, ...(on ? { tour: true } : {}) },
      FAST,
    );
    if (!r.ok) throw new Error(r.error.message);
    const done = await r.value.done;
    if (!done.ok) throw new Error(done.error.message);
    const view = x.svc.getSession(s);
    const said = (view.ok ? view.value.messages : [])
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text));
    return { asked, deltas, said, calls: done.value.calls };
  }

  it('asks the marked question exactly once although the rules allow edits, and streams the recorded words', async () => {
    const corpus = await loadCorpusSession(SAMPLE);
    if (!corpus.ok) throw new Error(corpus.error.message);
    const { asked, deltas, said, calls } = await tour(true);
    expect(asked).toEqual([{ patterns: 'test/shout.test.js', reasons: [corpus.value.ask?.[0]?.why] }]);
    expect(calls.filter((c) => c.landfall !== 'ok')).toEqual([]);
    const replies = corpus.value.replies ?? [];
    expect(said).toEqual([
      replies[0]?.before,
      `${replies[0]?.after}\n\nReplayed turn 1 of 2 (4 calls).`,
      replies[1]?.before,
      `${replies[1]?.after}\n\nReplayed turn 2 of 2 (3 calls).`,
    ]);
    // Streamed a word at a time: every delta is one word (with its spaces), and they add up to what was said.
    expect(deltas.length).toBeGreaterThan(50);
    expect(deltas.every((d) => d.trim().split(/\s+/).length === 1)).toBe(true);
    expect(deltas.join('')).toBe(said.join(''));
  }, 60_000);

  it('a rejected tour question leaves the test file unwritten and the replay goes on', async () => {
    const { asked, calls } = await tour(true, 'reject');
    expect(asked.map((a) => a.patterns)).toEqual(['test/shout.test.js']);
    expect(existsSync(path.join(h?.root as string, 'test/shout.test.js'))).toBe(false);
    expect(calls.filter((c) => c.landfall !== 'ok').map((c) => [c.path, c.landfall])).toEqual([
      ['test/shout.test.js', 'permission_denied'],
    ]);
    expect(readFileSync(path.join(h?.root as string, 'README.md'), 'utf8')).toContain('--shout');
  }, 60_000);

  it('without `tour` nothing is asked where the rules allow (a plain /replay sample)', async () => {
    const { asked } = await tour(false);
    expect(asked).toEqual([]);
  }, 60_000);

  it('a rule that denies still denies: the mark never turns deny into a question', async () => {
    h = await harness();
    writeRules(h, [{ permission: 'edit', pattern: 'test/*', action: 'deny' }]);
    const x = h;
    const s = x.newSession();
    let asked = 0;
    x.svc.on((e) => void (e.type === 'permission.asked' && asked++));
    const r = await x.svc.replay(s, SAMPLE, { mode: 'recorded', attended: true, tour: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(asked).toBe(0);
    expect(r.value.calls.find((c) => c.path === 'test/shout.test.js')?.landfall).toBe('permission_denied');
  }, 60_000);
});

describe('unattended replay (the command line)', () => {
  it('the same questions are answered "reject" at once: nobody is asked, the report says what was refused', async () => {
    h = await harness();
    writeRules(h, [ASK_EDITS]);
    const s = h.newSession();
    let asked = 0;
    h.svc.on((e) => void (e.type === 'permission.asked' && asked++));
    const r = await h.svc.replay(s, SAMPLE, { mode: 'recorded' });
    if (!r.ok) throw new Error(r.error.message);
    expect(asked).toBe(0);
    const refused = r.value.calls.filter((c) => c.landfall === 'permission_denied').map((c) => c.path);
    expect(refused).toEqual(['src/greet.js', 'src/cli.js', 'test/shout.test.js', 'README.md']);
    expect(h.svc.store.messageText(r.value.userMessageIds[0] as string)).toMatch(
      /^Replay turn 1 of 2 of greeter-shout: calls 1–/,
    );
    expect(readFileSync(path.join(h.root, 'src/greet.js'), 'utf8')).not.toContain('shout');
  }, 60_000);
});
