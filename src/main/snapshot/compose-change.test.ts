/**
 * composeChange (stat-entries.ts): one change standing for two — what store.ts writes when guided tracks' changes
 * wait for the store to be idle. Property: applying the composed change to any cache (puts, then removals, as a
 * journal record is replayed) gives what applying the two in turn gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeChange, emptyChange, type StatCacheChange, type StatCacheData, type StatEntry } from './stat-entries';

const key = fc.constantFrom('a', 'b', 'c', 'd/e', 'd/f');
const tree = fc.constantFrom('1'.repeat(40), '2'.repeat(40), '3'.repeat(40));
const entry = (n: number): StatEntry => ({
  size: n,
  mtimeMs: n,
  ctimeMs: n,
  ino: n,
  mode: 0o100644,
  oid: tree.toString(),
  racy: false,
  seen: n,
});
const dir = (n: number) => ({
  mtimeMs: n,
  ctimeMs: n,
  ino: n,
  names: `f${n}`,
  oid: undefined,
  count: n,
  racy: false,
  seen: 0,
});

const change: fc.Arbitrary<StatCacheChange> = fc
  .record({
    tree,
    puts: fc.array(fc.tuple(key, fc.nat(9))),
    gones: fc.array(key),
    dirPuts: fc.array(fc.tuple(key, fc.nat(9))),
    dirGones: fc.array(key),
    trees: fc.array(tree),
    goneTrees: fc.array(tree),
  })
  .map((r) => {
    const c = emptyChange(r.tree);
    for (const [k, n] of r.puts) c.entries.set(k, entry(n));
    c.goneEntries = r.gones.filter((k) => !c.entries.has(k));
    for (const [k, n] of r.dirPuts) c.dirs.set(k, dir(n));
    c.goneDirs = r.dirGones.filter((k) => !c.dirs.has(k));
    for (const t of r.trees) c.trees.add(t);
    c.goneTrees = r.goneTrees.filter((t) => !c.trees.has(t));
    return c;
  });

function apply(data: StatCacheData, c: StatCacheChange): void {
  for (const [k, v] of c.entries) data.entries.set(k, v);
  for (const [k, v] of c.dirs) data.dirs.set(k, v);
  for (const t of c.trees) data.trees.add(t);
  for (const k of c.goneEntries) data.entries.delete(k);
  for (const k of c.goneDirs) data.dirs.delete(k);
  for (const t of c.goneTrees) data.trees.delete(t);
  data.tree = c.tree;
}

const copy = (c: StatCacheChange): StatCacheChange => ({
  ...c,
  entries: new Map(c.entries),
  dirs: new Map(c.dirs),
  trees: new Set(c.trees),
  goneEntries: [...c.goneEntries],
  goneDirs: [...c.goneDirs],
  goneTrees: [...c.goneTrees],
});

describe('composeChange', () => {
  it('applied once equals the two changes applied in turn (property)', () => {
    fc.assert(
      fc.property(change, change, change, (start, a, b) => {
        const base = (): StatCacheData => {
          const d: StatCacheData = { tree: undefined, entries: new Map(), dirs: new Map(), trees: new Set() };
          apply(d, start);
          return d;
        };
        const inTurn = base();
        apply(inTurn, a);
        apply(inTurn, b);
        const once = base();
        const c = composeChange(copy(a), b);
        apply(once, c);
        expect(once).toEqual(inTurn);
        // No key is both put and removed (a record applies its puts first).
        expect(c.goneEntries.filter((k) => c.entries.has(k))).toEqual([]);
        expect(c.goneDirs.filter((k) => c.dirs.has(k))).toEqual([]);
        expect(c.goneTrees.filter((t) => c.trees.has(t))).toEqual([]);
      }),
    );
  });
});
