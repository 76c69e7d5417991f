/**
 * Corpus half of the edit benchmark: replays the real failed and fuzzy-landed edit calls of
 * fixtures/corpus (read at run time) through replace() and sorts every outcome.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { replace } from '../src/main/engine/edit/index';

interface FailedEdit {
  session: string;
  seq: number;
  content: string;
  old_string: string;
  new_string: string;
  intended: string | null;
  intervening_ok_edits: number;
}

interface FuzzyEdit {
  session: string;
  seq: number;
  content: string;
  old_string: string;
  new_string: string;
  after: string;
}

export interface CorpusTally {
  known: number;
  asIntended: number;
  alreadyApplied: number;
  refusedKnown: number;
  wrong: string[];
  unknown: number;
  /** Unknown-intent calls answered already_applied: newString already stands in the file, nothing written. */
  unknownAlreadyApplied: number;
  landedUnknown: string[];
  fuzzyTotal: number;
  fuzzyAsIntended: number;
  /** Of fuzzyAsIntended: calls whose original landing changed nothing, answered no_change. */
  fuzzyNoop: number;
  fuzzyRefused: number;
  fuzzyWrong: string[];
  rungs: Record<string, number>;
  codes: Record<string, number>;
}

function readJsonl<T>(name: string): T[] {
  const file = path.resolve(process.cwd(), 'fixtures/corpus', name);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** A landing with other edits between it and `intended`: judge by the landed lines (±1 line) appearing there. */
function landedLinesIn(before: string, after: string, intended: string): boolean {
  const a = after.split('\n');
  const b = before.split('\n');
  let top = 0;
  while (top < a.length && a[top] === b[top]) top++;
  let tail = 0;
  while (tail < a.length - top && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const window = a.slice(Math.max(0, top - 1), a.length - tail + 1).join('\n');
  return intended.includes(window);
}

const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

export function runCorpus(): CorpusTally {
  const t: CorpusTally = {
    known: 0,
    asIntended: 0,
    alreadyApplied: 0,
    refusedKnown: 0,
    wrong: [],
    unknown: 0,
    unknownAlreadyApplied: 0,
    landedUnknown: [],
    fuzzyTotal: 0,
    fuzzyAsIntended: 0,
    fuzzyNoop: 0,
    fuzzyRefused: 0,
    fuzzyWrong: [],
    rungs: {},
    codes: {},
  };
  for (const e of readJsonl<FailedEdit>('failed-edits.jsonl')) {
    const r = replace(e.content, e.old_string, e.new_string);
    const id = `${e.session}#${e.seq}`;
    if (r.ok) bump(t.rungs, r.value.rung);
    else bump(t.codes, r.error.code);
    if (e.intended === null) {
      t.unknown++;
      if (r.ok) t.landedUnknown.push(`${id} (${r.value.rung})`);
      else if (r.error.code === 'already_applied') t.unknownAlreadyApplied++;
      continue;
    }
    t.known++;
    if (!r.ok) {
      // the file already is what the model wanted: already_applied (or no_change for an identical re-send)
      const recognised = r.error.code === 'already_applied' || r.error.code === 'no_change';
      if (recognised && e.intended === e.content) t.alreadyApplied++;
      else t.refusedKnown++;
      continue;
    }
    const fine =
      r.value.content === e.intended ||
      (e.intervening_ok_edits > 0 && landedLinesIn(e.content, r.value.content, e.intended));
    if (fine) t.asIntended++;
    else t.wrong.push(`${id} (${r.value.rung})`);
  }
  for (const e of readJsonl<FuzzyEdit>('fuzzy-landed-edits.jsonl')) {
    t.fuzzyTotal++;
    const r = replace(e.content, e.old_string, e.new_string);
    if (r.ok) bump(t.rungs, r.value.rung);
    else bump(t.codes, r.error.code);
    if (!r.ok && r.error.code === 'no_change' && e.after === e.content) {
      t.fuzzyAsIntended++;
      t.fuzzyNoop++;
    } else if (!r.ok) t.fuzzyRefused++;
    else if (r.value.content === e.after) t.fuzzyAsIntended++;
    else t.fuzzyWrong.push(`${e.session}#${e.seq} (${r.value.rung})`);
  }
  return t;
}
