import { bigFile } from './bench/edit-inputs';
import { LADDER } from './src/main/edit/replacers/index';
import { makeContext, distinctPlaces } from './src/main/edit/search';
import { TextIndex } from './src/main/edit/text';
import { closestRegion } from './src/main/edit/closest';
import { normalizeFile } from './src/main/edit/line-endings';
import { replace } from './src/main/edit/index';
const big = bigFile(20000);
const absent = '  const total = items.reduce((a, b) => a + b, 0);\n  if (total > limit) {\n    throw new RangeError("over limit");\n  }\n  return total;';
const acc: Record<string, number[]> = {};
const add = (k: string, v: number) => { (acc[k] ??= []).push(v); };
for (let round = 0; round < 25; round++) {
  let t = performance.now();
  const file = normalizeFile(big); add('normalize', performance.now() - t);
  const text = new TextIndex(file.text);
  t = performance.now(); void text.lineStarts; add('lineStarts', performance.now() - t);
  const ctx = makeContext(text, absent);
  for (const r of LADDER) { t = performance.now(); distinctPlaces(r.find(ctx)); add(r.name, performance.now() - t); }
  t = performance.now(); closestRegion(ctx); add('closest', performance.now() - t);
  t = performance.now(); replace(big, absent, 'return 0;'); add('TOTAL', performance.now() - t);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(Object.entries(acc).map(([k, v]) => `${k} ${med(v).toFixed(2)}`).join(' | '));
