/**
 * Session search: the sessions of a project whose title, or one of whose messages' text parts (the user's words
 * and the assistant's answers; not tool outputs or reasoning), holds every word of a query — case folded, as
 * substrings. Text is found through the `search_text` FTS5 index (db.ts: trigram tokenizer, kept by triggers on
 * `parts`), titles by comparing in JavaScript (a project has few sessions).
 *
 * The query never reaches SQL as syntax: a word of 3+ characters becomes one FTS5 string (`"…"`, inner quotes
 * doubled — inside a string every FTS5 operator, `*`, `NEAR`, `:`, `^`, `-` is plain text), a shorter one (the
 * trigram index cannot look up 1–2 characters) a LIKE pattern with `%`, `_` and `\` escaped; both go as bound
 * parameters. Control characters separate words (an FTS5 string cannot hold NUL). At most MAX_WORDS words count.
 */
import type { Db } from './db';
import type { SearchMatch, SessionSearchHit, Snippet } from '../../shared/search-schemas';
import type { Session } from '../../shared/model';

/** Words of a query that count (more are ignored). */
export const MAX_WORDS = 8;
/** Sessions answered at most. */
export const MAX_SESSIONS = 30;
/** Matching messages shown per session (the rest counted in `more`). */
export const MATCHES_PER_SESSION = 3;
/** Text rows read at most per query (bounds a one-letter query on a large history). */
const MAX_ROWS = 2_000;
const BEFORE = 40;
const AFTER = 100;

/** The words of `query`: split at white space and control characters, distinct (case folded), at most MAX_WORDS. */
export function queryWords(query: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex -- control characters are separators here on purpose
  for (const w of query.split(/[\s\u0000-\u001f\u007f]+/u)) {
    const key = w.toLowerCase();
    if (w === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(w);
    if (out.length === MAX_WORDS) break;
  }
  return out;
}

/** `word` as one FTS5 string: the whole word is literal text, whatever it holds. */
export function ftsString(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** `word` as a LIKE pattern matching it anywhere, with `\`, `%` and `_` escaped (ESCAPE '\'). */
export function likeAnywhere(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where `word` first stands in `text`, case folded, or -1. */
function findWord(text: string, word: string): { at: number; length: number } | undefined {
  const m = new RegExp(escapeRegExp(word), 'iu').exec(text);
  return m ? { at: m.index, length: m[0].length } : undefined;
}

/** True when `text` holds every word (case folded). */
function holdsAll(text: string, words: string[]): boolean {
  return words.every((w) => findWord(text, w) !== undefined);
}

/** A one-line snippet of `text` around the first match of the first word that stands in it. */
export function snippetOf(text: string, words: string[]): Snippet {
  const flat = text.replace(/\s+/g, ' ');
  const hit = words.map((w) => findWord(flat, w)).find((h) => h !== undefined);
  if (!hit) return { before: '', match: '', after: cut(flat, AFTER) };
  const start = Math.max(0, hit.at - BEFORE);
  let before = flat.slice(start, hit.at);
  // a cut start begins at the next word, not inside one
  if (start > 0) before = `…${before.slice(before.indexOf(' ') + 1)}`;
  return {
    before: before.trimStart(),
    match: flat.slice(hit.at, hit.at + hit.length),
    after: cut(flat.slice(hit.at + hit.length), AFTER),
  };
}

/** `s` up to `n` characters, cut after the last whole word with "…" when longer. */
function cut(s: string, n: number): string {
  if (s.length <= n) return s;
  const head = s.slice(0, n);
  const space = head.lastIndexOf(' ');
  return `${(space > 0 ? head.slice(0, space) : head).trimEnd()}…`;
}

interface Row {
  part_id: string;
  message_id: string;
  session_id: string;
  text: string;
  role: 'user' | 'assistant';
}

/** Text parts of `projectId` holding every word, newest session first, in message order within a session. */
function matchingTexts(db: Db, projectId: string, words: string[]): Row[] {
  const long = words.filter((w) => [...w].length >= 3);
  const short = words.filter((w) => [...w].length < 3);
  const where = ['s.project_id = ?'];
  const params: unknown[] = [projectId];
  if (long.length > 0) {
    where.push('search_text MATCH ?');
    params.push(long.map(ftsString).join(' AND '));
  }
  for (const w of short) {
    where.push("t.text LIKE ? ESCAPE '\\'");
    params.push(likeAnywhere(w));
  }
  const sql = `SELECT t.part_id, t.message_id, t.session_id, t.text, m.role
    FROM search_text t JOIN sessions s ON s.id = t.session_id JOIN messages m ON m.id = t.message_id
    WHERE ${where.join(' AND ')} ORDER BY s.updated DESC, t.rowid ASC LIMIT ${MAX_ROWS}`;
  // LIKE folds ASCII only and the index folds more; the words are checked again here the same way for both
  return (db.prepare(sql).all(...params) as Row[]).filter((r) => holdsAll(r.text, words));
}

/**
 * Search `sessions` (the project's, newest first) for `query` (module docstring). Sessions whose title matches
 * come first, then the others, each group newest first; at most MAX_SESSIONS. An empty query answers [].
 */
export function searchSessions(db: Db, projectId: string, sessions: Session[], query: string): SessionSearchHit[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const bySession = new Map<string, SearchMatch[]>();
  for (const r of matchingTexts(db, projectId, words)) {
    const list = bySession.get(r.session_id) ?? [];
    list.push({ messageId: r.message_id, partId: r.part_id, role: r.role, snippet: snippetOf(r.text, words) });
    bySession.set(r.session_id, list);
  }
  const hits: SessionSearchHit[] = [];
  for (const s of sessions) {
    const matches = bySession.get(s.id) ?? [];
    const titleMatch = holdsAll(s.title, words);
    if (!titleMatch && matches.length === 0) continue;
    hits.push({
      sessionId: s.id,
      title: s.title,
      updated: s.updated,
      ...(titleMatch ? { titleMatch: snippetOf(s.title, words) } : {}),
      matches: matches.slice(0, MATCHES_PER_SESSION),
      more: Math.max(0, matches.length - MATCHES_PER_SESSION),
    });
  }
  hits.sort((a, b) => Number(b.titleMatch !== undefined) - Number(a.titleMatch !== undefined) || b.updated - a.updated);
  return hits.slice(0, MAX_SESSIONS);
}
