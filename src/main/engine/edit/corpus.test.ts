/**
 * Real sessions (fixtures/corpus/sessions, read at test time): every edit the recorded tool applied with a unique
 * exact match is replayed through replace() in session order and must give the recorded bytes
 * (expected_after_sha256). Edits the original tool only landed through its own lenient matcher take their recorded
 * result (fuzzy-landed-edits.jsonl) so later calls see the same file; re-sends with oldString === newString must be
 * no_change. This is the guard that the token-boundary rule and the ladder never disturb an ordinary edit.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replace } from './index';

const corpus = path.resolve(process.cwd(), 'fixtures/corpus');
const jsonl = (file: string): Record<string, unknown>[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const sha = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
const fuzzy = jsonl(path.join(corpus, 'fuzzy-landed-edits.jsonl'));

function replay(session: string): { landed: number; mismatches: string[] } {
  const files = new Map<string, string>();
  for (const f of jsonl(path.join(corpus, 'sessions', session, 'files.jsonl'))) {
    const content = String(f.content);
    files.set(String(f.path), f.encoding === 'utf8' ? content : Buffer.from(content, 'base64').toString('utf8'));
  }
  const recorded = new Map(fuzzy.filter((f) => f.session === session).map((f) => [Number(f.seq), String(f.after)]));
  let landed = 0;
  const mismatches: string[] = [];
  for (const c of jsonl(path.join(corpus, 'sessions', session, 'calls.jsonl'))) {
    const file = String(c.landed_in ?? c.path);
    if (c.tool === 'write') files.set(file, String(c.content));
    if (c.tool === 'delete') files.delete(file);
    if (c.tool !== 'edit' || c.orig_outcome !== 'ok') continue;
    const before = files.get(file) ?? '';
    const after = recorded.get(Number(c.seq));
    if (after !== undefined) {
      files.set(file, after);
      continue;
    }
    const oldString = String(c.old_string);
    const newString = String(c.new_string);
    const r = replace(before, oldString, newString);
    if (oldString === newString) {
      if (r.ok || r.error.code !== 'no_change')
        mismatches.push(`#${String(c.seq)} identical re-send not answered no_change`);
      continue;
    }
    if (!r.ok) mismatches.push(`#${String(c.seq)} refused: ${r.error.code}`);
    else if (sha(r.value.content) !== c.expected_after_sha256)
      mismatches.push(`#${String(c.seq)} wrong bytes (${r.value.rung})`);
    else landed++;
    files.set(file, r.ok ? r.value.content : before);
  }
  return { landed, mismatches };
}

describe('recorded sessions: every exact edit lands byte-identically', () => {
  const sessions = readdirSync(path.join(corpus, 'sessions')).sort();
  it('finds the 21 sessions', () => {
    expect(sessions.length).toBe(21);
  });
  let total = 0;
  for (const session of sessions) {
    it(session, () => {
      const { landed, mismatches } = replay(session);
      total += landed;
      expect(mismatches).toEqual([]);
    });
  }
  it('lands all 89 exact edits that change bytes', () => {
    expect(total).toBe(89);
  });
});
