/**
 * Read-policy benchmark: `npm run bench:reveal`. The cost of judging files by identity (hard links of denied
 * files, src/main/agent/permission/hard-links.ts) on a pnpm-shaped tree where every package file is a hard link
 * into a store outside the project (nlink 2), as a grep or glob over the whole tree judges them.
 *   anchor: the path-only guard (revealGuard without a root: rules by path, no stat) over every file;
 *   identity: the guard with the root (a stat per file, and one walk of the project at the first linked file);
 *   stat: one stat per file alone (what the identity check adds per file);
 *   walk: deniedIdentities alone (the one walk per tool call).
 * Medians over 7 runs after 2 warm-up runs, each with a fresh guard (one guard is one tool call). Taken on a shared
 * 2-core machine while other work runs: expect noise.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { revealGuard } from '../src/main/agent/permission/reveal-policy';
import { deniedIdentities } from '../src/main/agent/permission/hard-links';
import type { PermissionRule } from '../src/main/agent/permission/rules';

const PACKAGES = 400;
const FILES_PER_PACKAGE = 50;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

function build(): { base: string; root: string; rels: string[] } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'landfall-reveal-bench-'));
  const root = path.join(base, 'project');
  const rels: string[] = [];
  for (let p = 0; p < PACKAGES; p++) {
    const store = path.join(base, 'store', `pkg${p}`);
    const dir = `node_modules/.pnpm/pkg${p}@1.0.0/node_modules/pkg${p}/lib`;
    mkdirSync(store, { recursive: true });
    mkdirSync(path.join(root, dir), { recursive: true });
    for (let f = 0; f < FILES_PER_PACKAGE; f++) {
      writeFileSync(path.join(store, `f${f}.js`), `module.exports = ${f};\n`);
      linkSync(path.join(store, `f${f}.js`), path.join(root, dir, `f${f}.js`));
      rels.push(`${dir}/f${f}.js`);
    }
  }
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, '.env'), 'SECRET=1\n');
  linkSync(path.join(root, '.env'), path.join(root, 'src/hard.txt'));
  rels.push('src/hard.txt');
  return { base, root, rels };
}

function time(run: () => number): { ms: number; result: number } {
  let result = 0;
  const ms: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    result = run();
    if (i >= 2) ms.push(performance.now() - t);
  }
  return { ms: median(ms), result };
}

const { base, root, rels } = build();
const rules: PermissionRule[] = [{ permission: 'read', pattern: '**/.env*', action: 'deny' }];
const judgeAll = (guardRoot?: string) => () => {
  const guard = revealGuard(rules, [], guardRoot);
  return rels.filter((rel) => guard.withheld(rel, true) !== undefined).length;
};
const anchor = time(judgeAll());
const identity = time(judgeAll(root));
const stats = time(() => rels.filter((rel) => statSync(path.join(root, rel), { bigint: true }).nlink > 1n).length);
const walk = time(() => deniedIdentities(root, (rel) => (/(^|\/)\.env/.test(rel) ? 'denied' : undefined)).size);
console.log(`tree: ${rels.length} files, ${rels.length - 1} hard-linked into a store (nlink 2), 1 hard link of .env`);
console.log(`anchor   path-only guard over every file: ${anchor.ms.toFixed(1)} ms (withheld ${anchor.result})`);
console.log(
  `identity guard with root over every file: ${identity.ms.toFixed(1)} ms (withheld ${identity.result}) = ${(identity.ms / anchor.ms).toFixed(1)}× anchor, +${(((identity.ms - anchor.ms) / rels.length) * 1000).toFixed(1)} µs per file`,
);
console.log(`stat     one bigint stat per file alone: ${stats.ms.toFixed(1)} ms`);
console.log(`walk     deniedIdentities alone: ${walk.ms.toFixed(1)} ms (${walk.result} linked denied identity)`);
rmSync(base, { recursive: true, force: true });
