#!/usr/bin/env node
// Refreshes fixtures/ (the test data this repository owns: conformance cases, the recorded corpus, the bug
// reproductions, and docs/DESIGN.md) from a ../shared folder beside the checkout, when one exists. The suite reads only fixtures/,
// so a clone alone passes `npm test`; run `npm run fixtures:sync` after ../shared changed, review, commit.
import { cpSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const shared = path.resolve(root, '..', 'shared');
if (!existsSync(shared)) {
  console.log(`no ${shared}: fixtures/ left as committed`);
  process.exit(0);
}
for (const name of ['conformance', 'corpus', 'bugs']) {
  const from = path.join(shared, name);
  if (!existsSync(from)) continue;
  const to = path.join(root, 'fixtures', name);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  console.log(`fixtures/${name} ← ${from}`);
}
// The design document that comments cite as "DESIGN §n" lives in docs/DESIGN.md.
const design = path.join(shared, 'DESIGN.md');
if (existsSync(design)) {
  cpSync(design, path.join(root, 'docs', 'DESIGN.md'));
  console.log(`docs/DESIGN.md ← ${design}`);
}
