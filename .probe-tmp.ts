import { replace } from './src/main/edit/index';
import { bigFile } from './bench/edit-inputs';
import { LADDER } from './src/main/edit/replacers/index';
import { makeContext, distinctPlaces } from './src/main/edit/search';
import { TextIndex } from './src/main/edit/text';
import { closestRegion } from './src/main/edit/closest';
const big = bigFile(20000).replace(/"item-(\d+)"/g, '“item—$1”');
const absent = '  const total = items.reduce((a, b) => a + b, 0);\n  return total;';
const acc: Record<string, number[]> = {};
const add = (k: string, v: number) => { (acc[k] ??= []).push(v); };
for (let round = 0; round < 11; round++) {
  const text = new TextIndex(big);
  const ctx = makeContext(text, absent);
  let t = 0;
  for (const r of LADDER) { t = performance.now(); distinctPlaces(r.find(ctx)); add(r.name, performance.now() - t); }
  t = performance.now(); closestRegion(ctx); add('closest', performance.now() - t);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(Object.entries(acc).map(([k, v]) => `${k} ${med(v).toFixed(2)}`).join(' | '));
const line = big.split('\n')[15001]!; const ascii = line.replace(/[“”]/g, '"').replace('—', '-');
const r = replace(big, ascii, 'X'); console.log(r.ok ? r.value.rung + ' ' + r.value.startLine + ' ' + JSON.stringify(r.value.content.split('\n')[15001]) : r.error.code);
