/**
 * The baseline (what the model is told once per session, on its first model call) and the change notices that
 * follow it. Sources: the environment (working directory, platform), the date (day only), the global AGENTS.md in
 * the data folder, the instruction file of every level from the repository top to the working directory
 * (instructions.ts), and the skills list (skills.ts: name + one line each). The baseline text holds no clock time and no ids, so the request prefix stays byte-stable
 * and providers can cache it.
 *
 * Before each step every known source is read again (`recheck`). A source whose text changed gives ONE change
 * notice (a user message starting with NOTICE_TAG; for an instruction file its complete new text, replacing the old
 * for the model) and its record is updated; nothing changed → no notice. A source that cannot be read keeps its
 * last content. A sub-folder's AGENTS.md joins as a new source the first time a tool read a file under it.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ContextSource } from '../../session/baseline-store';
import { baselineLevels, nestedLevels, readLevel, renderInstruction } from './instructions';
import { NOTICE_TAG } from './request-text';
import { findSkills, renderSkills } from './skills';

/** Where the session runs. `today()` gives the local date as YYYY-MM-DD (injectable for tests). */
export interface ContextEnv {
  root: string;
  dataDir: string;
  platform: string;
  today: () => string;
}

/** The local date as YYYY-MM-DD (day only: the prefix must not change within a day). */
export function localDay(now = new Date()): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

const hash = (text: string): string => createHash('sha256').update(text).digest('hex');

function source(key: string, label: string, text: string, extra: Partial<ContextSource> = {}): ContextSource {
  return { key, label, text, hash: hash(text), ...extra };
}

/** A read that failed: the source's key and why (the caller keeps its last content, or cannot build the baseline). */
export interface Unreadable {
  key: string;
  why: string;
}

/** Read one instruction source (`kind:dir` key). Undefined text with `why` when it could not be read. */
function readInstruction(key: string, dir: string, names?: readonly string[]): ContextSource | Unreadable {
  const r = readLevel(dir, names);
  if (r.kind === 'unreadable') return { key, why: r.why };
  if (r.kind === 'none') return source(key, path.join(dir, 'AGENTS.md'), '');
  const f = r.file;
  return source(key, f.path, renderInstruction(f), { path: f.path, bytes: f.bytes, cutBytes: f.cutBytes });
}

/** Read the source `key` afresh. */
function readSource(env: ContextEnv, key: string): ContextSource | Unreadable {
  if (key === 'environment')
    return source(
      key,
      'environment',
      `<environment>\nWorking directory: ${env.root}\nPlatform: ${env.platform}\n</environment>`,
    );
  if (key === 'date') return source(key, 'date', `Today's date: ${env.today()}`);
  if (key === 'global') return readInstruction(key, env.dataDir, ['AGENTS.md']);
  if (key === 'skills') return source(key, 'skills', renderSkills(findSkills(env.root, env.dataDir)));
  const [kind, dir] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  if (kind === 'level' || kind === 'nested') return readInstruction(key, dir);
  return { key, why: `unknown source ${key}` };
}

const isUnreadable = (s: ContextSource | Unreadable): s is Unreadable => 'why' in s;

/** The sources of a new baseline, in the order the model reads them. */
export function baselineKeys(env: ContextEnv): string[] {
  return ['environment', 'date', 'global', ...baselineLevels(env.root).map((d) => `level:${d}`), 'skills'];
}

/** The baseline's text: its sources' texts, empty ones left out, separated by a blank line. */
export function renderBaseline(sources: ContextSource[]): string {
  return sources
    .map((s) => s.text)
    .filter((t) => t !== '')
    .join('\n\n');
}

/** Build a first baseline. Fails (with every source that could not be read) when any source is unreadable. */
export function buildBaseline(
  env: ContextEnv,
): { ok: true; text: string; sources: ContextSource[] } | { ok: false; unreadable: Unreadable[] } {
  const read = baselineKeys(env).map((k) => readSource(env, k));
  const unreadable = read.filter(isUnreadable);
  if (unreadable.length > 0) return { ok: false, unreadable };
  const sources = read as ContextSource[];
  return { ok: true, text: renderBaseline(sources), sources };
}

/** The change notice for `next` replacing `prev` (prev undefined: a source seen for the first time). */
export function noticeText(prev: ContextSource | undefined, next: ContextSource): string {
  let body: string;
  if (next.key === 'date') body = `The date changed. ${next.text}`;
  else if (next.key === 'environment') body = `The environment changed:\n${next.text}`;
  else if (next.key === 'skills')
    body = next.text === '' ? 'No skills are available any more.' : `The available skills changed:\n${next.text}`;
  else if (prev === undefined)
    body = `Instructions for files under ${path.dirname(next.label)} (read there for the first time):\n${next.text}`;
  else if (next.text === '') body = `The instruction file ${prev.label} was removed; its instructions no longer apply.`;
  else if (prev.text === '') body = `An instruction file was added; follow it from now on:\n${next.text}`;
  else
    body = `The instruction file ${next.label} changed. Its complete new text replaces the earlier one:\n${next.text}`;
  return `${NOTICE_TAG}\n${body}\n</context-notice>`;
}

/** Instruction levels below the root that files the tools read open up (nested AGENTS.md), not yet known. */
export function newNestedKeys(env: ContextEnv, readFiles: string[], known: Set<string>): string[] {
  const out: string[] = [];
  for (const f of readFiles)
    for (const dir of nestedLevels(env.root, f)) {
      const key = `nested:${dir}`;
      if (!known.has(key) && !known.has(`level:${dir}`) && !out.includes(key)) out.push(key);
    }
  return out;
}

/** What a re-check found: the updated record and one notice per source that changed. */
export interface Recheck {
  sources: ContextSource[];
  notices: { key: string; text: string }[];
}

/**
 * Read every known source again, plus the nested levels `readFiles` opened. A changed source → one notice and the
 * new record; unreadable → the last content kept, no notice; a new nested level without a file → recorded
 * silently (so a file added there later gives a notice).
 */
export function recheck(env: ContextEnv, known: ContextSource[], readFiles: string[]): Recheck {
  const sources: ContextSource[] = [];
  const notices: Recheck['notices'] = [];
  for (const prev of known) {
    const next = readSource(env, prev.key);
    if (isUnreadable(next) || next.hash === prev.hash) {
      sources.push(prev);
      continue;
    }
    sources.push(next);
    notices.push({ key: next.key, text: noticeText(prev, next) });
  }
  for (const key of newNestedKeys(env, readFiles, new Set(known.map((s) => s.key)))) {
    const next = readSource(env, key);
    if (isUnreadable(next)) continue;
    sources.push(next);
    if (next.text !== '') notices.push({ key, text: noticeText(undefined, next) });
  }
  return { sources, notices };
}
