/**
 * Replay of all 21 corpus sessions in recorded mode through the real loop (real SQLite, real snapshot store):
 * - after every call Landfall lands, the file's sha256 equals the original tool's `expected_after_sha256`;
 * - where every recorded successful edit matched one place, the project ends exactly at final.diff applied to
 *   the base files;
 * - where the original tool guessed among several matches (aider took the first), Landfall refuses with
 *   `ambiguous` at exactly those calls;
 * - after the replay, revert to each user message equals an independent copy of the files taken at that point,
 *   unrevert returns exactly to the end state, undo/redo walk the turns.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCorpusSession } from './corpus';
import { applyFinalDiff, CORPUS, corpusSessions, harness, readTree, SESSIONS_DIR, treeText } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';

interface Fuzzy {
  session: string;
  seq: number;
  exact_match_count: number;
  content: string;
  old_string: string;
}

/**
 * Places where aider's matcher could put `old` in `content`: windows whose lines equal old's lines up to ONE
 * uniform indentation offset (its exact and leading-whitespace modes). More than one place means aider guessed
 * (it takes the first). Computed here independently of Landfall's engine.
 */
function aiderPlaces(content: string, old: string): number {
  const cl = content.split('\n');
  const ol = old.replace(/\n$/, '').split('\n');
  const indent = (s: string): number => s.length - s.trimStart().length;
  let n = 0;
  for (let i = 0; i + ol.length <= cl.length; i++) {
    let offset: number | undefined;
    const fits = ol.every((o, k) => {
      const c = cl[i + k] as string;
      if (c.trim() === '' && o.trim() === '') return true;
      if (c.trimStart() !== o.trimStart()) return false;
      const d = indent(c) - indent(o);
      offset ??= d;
      return offset === d;
    });
    if (fits) n++;
  }
  return n;
}

const guessed = readFileSync(path.join(CORPUS, 'fuzzy-landed-edits.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Fuzzy)
  .filter((f) => aiderPlaces(f.content, f.old_string) > 1);

const open: Harness[] = [];
let shaChecked = 0;
afterAll(async () => {
  for (const h of open) await h.close();
  process.stdout.write(
    `\nrecorded replay: ${shaChecked} landed calls matched the original tool's expected_after_sha256\n`,
  );
});

describe('replay of the corpus, recorded mode', () => {
  expect(corpusSessions()).toHaveLength(21);
  for (const id of corpusSessions()) {
    it(`${id}: lands every recorded edit, refuses exactly the guessed ones, reverts exactly`, async () => {
      const corpus = await loadCorpusSession(path.join(SESSIONS_DIR, id));
      if (!corpus.ok) throw new Error(corpus.error.message);
      const h = await harness();
      open.push(h);
      const session = h.newSession(id);
      const points: Map<string, Buffer>[] = [];
      // every file-changing call: the file right after it has the sha256 the original tool produced
      // (once Landfall refused a call the original guessed, later texts legitimately differ: checked up to there)
      const firstGuess = Math.min(...guessed.filter((g) => g.session === id).map((g) => g.seq));
      const expectedSha = new Map(
        corpus.value.calls
          .filter((c) => typeof c.expected_after_sha256 === 'string' && c.seq < firstGuess)
          .map((c) => [
            `replay-${c.seq}`,
            { sha: c.expected_after_sha256 as string, path: (c.landed_in ?? c.path) as string },
          ]),
      );
      const shaMismatch: string[] = [];
      let checked = 0;
      h.svc.on((e) => {
        if (e.type !== 'part.updated' || e.part.type !== 'tool' || e.part.state !== 'completed') return;
        const want = expectedSha.get(e.part.callId);
        if (!want) return;
        checked++;
        const got = createHash('sha256')
          .update(readFileSync(path.join(h.root, want.path)))
          .digest('hex');
        if (got !== want.sha) shaMismatch.push(e.part.callId);
      });
      const r = await h.svc.replay(
        session,
        path.join(SESSIONS_DIR, id),
        { mode: 'recorded' },
        {
          beforeTurn: () => {
            points.push(readTree(h.root));
          },
        },
      );
      if (!r.ok) throw new Error(r.error.message);
      const edits = r.value.calls.filter((c) => c.tool === 'edit');
      const refused = edits.filter((c) => c.landfall === 'ambiguous').map((c) => c.seq);
      const expectGuessed = guessed.filter((g) => g.session === id).map((g) => g.seq);
      expect(refused).toEqual(expectGuessed);
      expect(shaMismatch).toEqual([]);
      shaChecked += checked;
      expect(checked).toBe(
        r.value.calls.filter((c) => !c.synthetic && c.landfall === 'ok' && expectedSha.has(`replay-${c.seq}`)).length,
      );
      const end = readTree(h.root);
      // an edit whose newString equals its oldString changed nothing in the original tool: Landfall says no_change
      const noOps = corpus.value.calls
        .filter((c) => c.tool === 'edit' && c.orig_outcome === 'ok' && c.old_string === c.new_string)
        .map((c) => c.seq);
      expect(edits.filter((c) => c.landfall === 'no_change').map((c) => c.seq)).toEqual(noOps);
      if (expectGuessed.length === 0) {
        const unexpected = r.value.calls.filter(
          (c) => !c.synthetic && c.landfall !== 'ok' && c.landfall !== 'skipped' && !noOps.includes(c.seq),
        );
        expect(unexpected).toEqual([]);
        const expected = applyFinalDiff(corpus.value.files, corpus.value.finalDiff);
        for (const [file, text] of expected) {
          if (text === null) expect(end.has(file), `${file} deleted`).toBe(false);
          else expect(end.get(file)?.toString('utf8'), file).toBe(text);
        }
      }
      // revert to each user message, last to first: the files equal the copy taken before that turn
      const users = r.value.userMessageIds;
      expect(users).toHaveLength(points.length);
      for (let i = users.length - 1; i >= 0; i--) {
        const rv = await h.svc.revert(session, users[i] as string);
        if (!rv.ok) throw new Error(rv.error.message);
        expect(rv.value.conflicts).toEqual([]);
        expect(treeText(readTree(h.root))).toEqual(treeText(points[i] as Map<string, Buffer>));
      }
      const un = await h.svc.unrevert(session);
      expect(un.ok).toBe(true);
      expect(treeText(readTree(h.root))).toEqual(treeText(end));
      // undo walks back one turn at a time and gives the prompt back; redo walks forward to the end
      for (let i = users.length - 1; i >= Math.max(0, users.length - 3); i--) {
        const u = await h.svc.undo(session);
        if (!u.ok) throw new Error(u.error.message);
        expect(u.value.text).toContain(`Replay turn ${i + 1} of ${users.length}`);
        expect(treeText(readTree(h.root))).toEqual(treeText(points[i] as Map<string, Buffer>));
      }
      for (let i = Math.max(0, users.length - 3) + 1; i <= users.length; i++) {
        const d = await h.svc.redo(session);
        if (!d.ok) throw new Error(d.error.message);
        expect(treeText(readTree(h.root))).toEqual(
          treeText(i < users.length ? (points[i] as Map<string, Buffer>) : end),
        );
      }
      expect(
        h.svc.getSession(session).ok &&
          (h.svc.getSession(session) as { value: { session: { revert?: unknown } } }).value.session.revert,
      ).toBeUndefined();
      await h.close();
      open.splice(open.indexOf(h), 1);
    }, 60_000);
  }
});
