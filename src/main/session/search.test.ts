/**
 * Session search on a real SQLite file (search.ts, the `search_text` FTS5 index and its triggers in db.ts):
 * found by title and by the text of user and assistant messages, not by tool outputs; the index follows parts
 * as they stream, are rewritten, deleted, and as sessions go; the query is data — `%`, `_`, `\`, quotes, FTS5
 * syntax, control characters and very long strings match themselves or nothing, never error, never widen.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Part } from '../../shared/model';
import { cleanupTemp, tempDir } from '../agent/testing/fixtures';
import { ftsString, likeAnywhere, queryWords, searchSessions, snippetOf } from './search';
import { SessionStore } from './store';

let dir: string;
let store: SessionStore;
let projectId: string;

beforeEach(() => {
  dir = tempDir('search');
  store = SessionStore.open(path.join(dir, 'landfall.db'));
  projectId = store.upsertProject('/p', 'p').id;
});

afterEach(() => {
  store.close();
  cleanupTemp(dir);
});

let n = 0;
/** A session with messages `[role, text]` (each a message with one text part); answers the ids. */
function session(title: string, messages: ['user' | 'assistant', string][], time = ++n * 1000) {
  const s = store.createSession(projectId, title, undefined, time);
  const ids = messages.map(([role, text], i) => {
    const m = store.addMessage(s.id, role, role === 'user' ? text : undefined, undefined, time + i);
    const part: Part = { id: `${m.id}_t`, sessionId: s.id, messageId: m.id, time: m.time, type: 'text', text };
    store.putPart(part);
    return { messageId: m.id, partId: part.id };
  });
  return { id: s.id, ids };
}

const search = (q: string) => searchSessions(store.db, projectId, store.listSessions(projectId), q);
const found = (q: string) => search(q).map((h) => h.title);

describe('what is found', () => {
  it('by title and by the text of user and assistant messages, with a snippet and the message to open', () => {
    const a = session('Add a shout flag', [
      ['user', 'Please add a --shout flag to the greeter.'],
      ['assistant', 'I will read src/greet.js first, then make greet() upper-case the text.'],
    ]);
    session('Fix the failing test', [['user', 'The test in test/greet.test.js fails on CI.']]);
    expect(found('shout')).toEqual(['Add a shout flag']);
    expect(found('UPPER-CASE')).toEqual(['Add a shout flag']);
    const [hit] = search('upper-case');
    expect(hit).toEqual({
      sessionId: a.id,
      title: 'Add a shout flag',
      updated: expect.any(Number),
      matches: [
        {
          messageId: a.ids[1]?.messageId,
          partId: a.ids[1]?.partId,
          role: 'assistant',
          snippet: {
            before: '…src/greet.js first, then make greet() ',
            match: 'upper-case',
            after: ' the text.',
          },
        },
      ],
      more: 0,
    });
    expect(found('greet')).toEqual(['Fix the failing test', 'Add a shout flag']);
  });

  it('every word must stand in the title or in one message; title matches come first', () => {
    session('greeter: colours', [['user', 'make the output red']]);
    session('Other', [['assistant', 'the greeter now prints colours in red']]);
    expect(found('greeter red')).toEqual(['Other']);
    expect(found('greeter colours')).toEqual(['greeter: colours', 'Other']);
    expect(found('greeter blue')).toEqual([]);
  });

  it('one- and two-letter words (below the trigram index) still match, as substrings', () => {
    session('Short words', [['user', 'set x to 42 in go.mod']]);
    expect(found('go')).toEqual(['Short words']);
    expect(found('42 x')).toEqual(['Short words']);
    expect(found('43')).toEqual([]);
  });

  it('not tool outputs; a part rewritten while streaming is found by its final text only; deletes follow', () => {
    const s = session('Streaming', [['assistant', 'partial ans']]);
    const m = s.ids[0] as { messageId: string; partId: string };
    store.putPart({
      id: 'tool1',
      sessionId: s.id,
      messageId: m.messageId,
      time: 1,
      type: 'tool',
      tool: 'bash',
      callId: 'c',
      state: 'completed',
      input: {},
      output: 'a secret-looking zebra in a tool output',
    } as Part);
    expect(found('zebra')).toEqual([]);
    store.putPart({
      id: m.partId,
      sessionId: s.id,
      messageId: m.messageId,
      time: 1,
      type: 'text',
      text: 'final answer',
    });
    expect(found('partial')).toEqual([]);
    expect(found('final answer')).toEqual(['Streaming']);
    store.removeMessages(s.id, [m.messageId]);
    expect(found('final')).toEqual([]);
    const t = session('Gone', [['user', 'ephemeral words']]);
    store.deleteSession(t.id);
    expect(found('ephemeral')).toEqual([]);
    expect((store.db.prepare('SELECT count(*) AS n FROM search_text').get() as { n: number }).n).toBe(0);
  });

  it('only the asked project', () => {
    session('Here', [['user', 'needle']]);
    const other = store.upsertProject('/q', 'q').id;
    const s = store.createSession(other, 'There');
    const m = store.addMessage(s.id, 'user', 'needle');
    store.putPart({ id: 'x', sessionId: s.id, messageId: m.id, time: 1, type: 'text', text: 'needle' });
    expect(found('needle')).toEqual(['Here']);
  });

  it('at most 3 matches per session, the rest counted; snippets are one line, cut with …', () => {
    const long = `${'word '.repeat(30)}needle ${'tail '.repeat(40)}`;
    session('Many', [
      ['user', 'needle 1'],
      ['assistant', 'needle\n2'],
      ['user', 'needle 3'],
      ['assistant', long],
      ['user', 'needle 5'],
    ]);
    const [hit] = search('needle');
    expect(hit?.matches.map((m) => m.snippet.after)).toEqual([' 1', ' 2', ' 3']);
    expect(hit?.more).toBe(2);
    expect(snippetOf(long, ['needle'])).toEqual({
      before: '…word word word word word word word ',
      match: 'needle',
      after: ' tail tail tail tail tail tail tail tail tail tail tail tail tail tail tail tail tail tail tail…',
    });
  });

  it('a database that had parts before the index existed is indexed by the migration', () => {
    session('Before', [['user', 'older text']]);
    store.close();
    const file = path.join(dir, 'landfall.db');
    const raw = new Database(file);
    raw.exec(
      'DROP TRIGGER search_text_insert; DROP TRIGGER search_text_update; DROP TRIGGER search_text_delete; DROP TABLE search_text',
    );
    const version = raw.pragma('user_version', { simple: true }) as number;
    raw.exec('DROP TABLE running_turns');
    raw.pragma(`user_version = ${version - 2}`);
    raw.close();
    store = SessionStore.open(file);
    expect(found('older')).toEqual(['Before']);
  });
});

describe('the query is data', () => {
  const HOSTILE = [
    '%',
    '_',
    '\\',
    '%%',
    '100%',
    'a_b',
    '"',
    "'",
    '""',
    "'; DROP TABLE sessions; --",
    '" OR 1=1 --',
    'NEAR(needle hay)',
    'needle*',
    '*',
    'text:needle',
    '^needle',
    '-needle',
    'needle OR hay',
    'AND',
    '(',
    ')',
    '{col}',
    '\u0000',
    'nee\u0000dle',
    'x'.repeat(500),
    '🦀🦀🦀',
    ' ',
  ];

  it(`${HOSTILE.length} hostile queries: no error, nothing widened, tables intact`, () => {
    session('needle and hay', [['user', 'a plain needle in the hay, 100% sure, a_b stays']]);
    session('Other', [['assistant', 'nothing to see']]);
    let held = 0;
    for (const q of HOSTILE) {
      let titles: string[];
      try {
        titles = found(q);
      } catch (e) {
        console.log(`query ${JSON.stringify(q.slice(0, 40))} threw: ${(e as Error).message}`);
        continue;
      }
      // a result must really hold every word of the query, as text
      const ok = search(q).every((h) =>
        queryWords(q).every((w) =>
          [h.title, ...h.matches.map((m) => `${m.snippet.before}${m.snippet.match}${m.snippet.after}`)].some((t) =>
            t.toLowerCase().includes(w.toLowerCase()),
          ),
        ),
      );
      if (ok && !titles.includes('Other')) held++;
    }
    expect(store.listSessions(projectId)).toHaveLength(2);
    console.log(`session search, hostile queries: ${HOSTILE.length} attempts / ${held} held`);
    expect(held).toBe(HOSTILE.length);
    expect(found('100%')).toEqual(['needle and hay']);
    expect(found('a_b')).toEqual(['needle and hay']);
    expect(found('%')).toEqual(['needle and hay']);
    expect(found('_')).toEqual(['needle and hay']);
    expect(found('NEAR(needle hay)')).toEqual([]);
    expect(found('needle*')).toEqual([]);
  });

  it('property: any query returns only sessions that hold every word, and never throws', () => {
    session('alpha beta', [['user', 'gamma delta % _ " \' \\ ( ) * : ^ - NEAR AND OR NOT']]);
    session('epsilon', [['assistant', 'zeta eta theta']]);
    let runs = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (q) => {
        runs++;
        const hits = search(q);
        for (const h of hits) {
          const text = [h.title, ...h.matches.map((m) => m.snippet.before + m.snippet.match + m.snippet.after)]
            .join('\n')
            .toLowerCase();
          for (const w of queryWords(q)) if (!text.includes(w.toLowerCase())) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
    console.log(`session search, random queries: ${runs} attempts / ${runs} held`);
  });

  it('the pieces: words, FTS5 strings, LIKE patterns', () => {
    expect(queryWords('  a  b\u0000c a A ')).toEqual(['a', 'b', 'c']);
    expect(queryWords('1 2 3 4 5 6 7 8 9 10')).toHaveLength(8);
    expect(ftsString('say "hi"')).toBe('"say ""hi"""');
    expect(likeAnywhere('50%_\\')).toBe('%50\\%\\_\\\\%');
  });
});
