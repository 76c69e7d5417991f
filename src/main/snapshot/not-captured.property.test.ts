/**
 * Property (fast-check), hostile input: over random ignore-rule changes — added, removed, negated, moved between
 * levels (root .gitignore, sub/.gitignore, .git/info/exclude) — made by a step (bash: the patch lists everything
 * that changed; an edit tool: it lists only the files it wrote) and by the user between snapshots, a revert of
 * the step and a restore of the tree before it never delete a file that existed before the step and still exists,
 * and never change the bytes of a file no snapshot captured. Liveness: files the step created and the snapshots
 * captured are still removed, so the rule is not "never delete anything". Prints attempts / held.
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from './store';
import { cleanup, tempDir } from './test-support';

const PATHS = ['a.txt', 'secrets.env', 'b.log', 'sub/c.txt', 'sub/secrets.env', 'sub/d.log', 'sub/deep/e.log'];
const PATTERNS = [
  'secrets.env',
  '*.log',
  '*.env',
  'sub/',
  'deep/',
  '!b.log',
  '!sub/d.log',
  '!secrets.env',
  'sub/*.txt',
];
const RULE_FILES = { root: '.gitignore', sub: 'sub/.gitignore', exclude: '.git/info/exclude' } as const;

type Action =
  | { kind: 'rules'; where: keyof typeof RULE_FILES; lines: string[] }
  | { kind: 'write'; path: string; text: string }
  | { kind: 'delete'; path: string };

const linesArb = fc.subarray(PATTERNS, { maxLength: 4 });
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('rules' as const), where: fc.constantFrom('root', 'sub', 'exclude'), lines: linesArb }),
  fc.record({
    kind: fc.constant('write' as const),
    path: fc.constantFrom(...PATHS),
    text: fc.constantFrom('x', 'y', 'z'),
  }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...PATHS) }),
);
const caseArb = fc.record({
  initial: fc.subarray(PATHS, { minLength: 1 }),
  rules: fc.record({ root: linesArb, sub: linesArb, exclude: linesArb }),
  step: fc.array(actionArb, { minLength: 1, maxLength: 6 }),
  by: fc.constantFrom('bash', 'edit'),
  user: fc.array(actionArb, { maxLength: 3 }),
  op: fc.constantFrom('revert', 'restore'),
});

function apply(wt: string, a: Action): string {
  const rel = a.kind === 'rules' ? RULE_FILES[a.where] : a.path;
  const abs = join(wt, rel);
  if (a.kind === 'delete') {
    if (existsSync(abs)) unlinkSync(abs);
    return rel;
  }
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, a.kind === 'rules' ? a.lines.map((l) => `${l}\n`).join('') : `${a.text}\n`);
  return rel;
}

/** Every file of PATHS on disk now, with its text. */
function files(wt: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of PATHS) if (existsSync(join(wt, p))) out.set(p, readFileSync(join(wt, p), 'utf8'));
  return out;
}

describe('revert and restore never delete what no snapshot captured', () => {
  it('restore(tree): the user removed an ignore rule between two snapshots; the file that rule hid is kept', async () => {
    const base = tempDir('keep-restore');
    const wt = join(base, 'wt');
    try {
      mkdirSync(join(wt, '.git'), { recursive: true });
      writeFileSync(join(wt, '.gitignore'), 'secrets.env\n');
      writeFileSync(join(wt, 'secrets.env'), 'KEY=1\n');
      writeFileSync(join(wt, 'app.js'), 'v1\n');
      const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), log: () => undefined });
      try {
        const t1 = await store.track();
        writeFileSync(join(wt, '.gitignore'), ''); // the user removes the rule
        writeFileSync(join(wt, 'app.js'), 'v2\n');
        writeFileSync(join(wt, 'new.js'), 'new\n');
        await store.track(); // secrets.env is now captured
        const r = await store.restore(t1);
        expect(r).toEqual({
          restored: ['.gitignore', 'app.js'],
          deleted: ['new.js'],
          failed: [],
          kept: [{ path: 'secrets.env', reason: 'not_captured' }],
        });
        expect(readFileSync(join(wt, 'secrets.env'), 'utf8')).toBe('KEY=1\n');
      } finally {
        await store.close();
      }
    } finally {
      cleanup(base);
    }
  });

  it('property: pre-existing files survive any ignore-rule change by a step or the user', async () => {
    let attempts = 0;
    let held = 0;
    let removedCaptured = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const base = tempDir('keep');
        const wt = join(base, 'wt');
        try {
          mkdirSync(join(wt, '.git', 'info'), { recursive: true });
          mkdirSync(join(wt, 'sub', 'deep'), { recursive: true });
          for (const p of c.initial) apply(wt, { kind: 'write', path: p, text: 'before' });
          for (const where of ['root', 'sub', 'exclude'] as const)
            apply(wt, { kind: 'rules', where, lines: c.rules[where] });
          const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), log: () => undefined });
          try {
            const before = await store.track();
            const preExisting = new Set(files(wt).keys());
            const wrote = new Set(c.step.map((a) => apply(wt, a)));
            const changed = (await store.patch(before)).files;
            await store.track(); // the step's end
            for (const a of c.user) apply(wt, a);
            const now = await store.track(); // what a session tracks right before it reverts
            const onDisk = files(wt);
            const captured = new Set((await store.listFiles(now)).map((f) => f.path));
            const patchFiles = c.by === 'bash' ? changed : changed.filter((f) => wrote.has(f));
            const report =
              c.op === 'revert'
                ? await store.revert([{ hash: before, files: patchFiles }])
                : await store.restore(before);
            const after = files(wt);
            attempts++;
            for (const [p, text] of onDisk) {
              if (preExisting.has(p)) expect(after.has(p), `${p} existed before the step`).toBe(true);
              if (!captured.has(p)) expect(after.get(p), `${p} is in no snapshot`).toBe(text);
            }
            removedCaptured += report.deleted.filter((p) => !preExisting.has(p)).length;
            held++;
          } finally {
            await store.close();
          }
        } finally {
          cleanup(base);
        }
      }),
      { numRuns: 120 },
    );
    console.log(
      `not-captured property: ${attempts} attempts / ${held} held; ${removedCaptured} files the step created were removed`,
    );
    expect(removedCaptured).toBeGreaterThan(0);
  }, 120_000);
});
