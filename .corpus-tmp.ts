import { readFileSync } from 'node:fs';
import { replace } from './src/main/edit/index';
const rows = readFileSync('../shared/corpus/failed-edits.jsonl','utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
for (const e of rows) {
  const r = replace(e.content, e.old_string, e.new_string);
  const status = e.intended === null ? 'unknown' : e.intended === e.content ? 'APPLIED' : `known(int=${e.intervening_ok_edits})`;
  console.log(`${e.session}#${e.seq}`.padEnd(36), status.padEnd(10), (e.diagnosis.kinds.join(',')).padEnd(40), r.ok ? `LANDED ${r.value.rung}` : `${r.error.code} ${JSON.stringify(r.error.data).slice(0,90)}`);
}
const fz = readFileSync('../shared/corpus/fuzzy-landed-edits.jsonl','utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
for (const e of fz) {
  const r = replace(e.content, e.old_string, e.new_string);
  console.log('FZ', `${e.session}#${e.seq}`.padEnd(36), e.aider_match_mode, e.exact_match_count, r.ok ? `LANDED ${r.value.rung} ${r.value.content===e.after}` : `${r.error.code} ${JSON.stringify(r.error.data).slice(0,90)}`);
}
