/**
 * Child process for the write crash test (write-crash.test.ts): over and over, until it is SIGKILLed, it moves a
 * set of files from one version to the next with the real write paths — mode `patch`: one apply_patch updating
 * every file (journal in `<dataDir>/journal`, as the service's tools do); mode `revert`: the snapshot store's
 * revert of every file to the other of two trees. After each complete operation it prints `done <ms>`.
 * argv: <mode> <root> <dataDir> <files>.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyPatch } from '../../tools/apply-patch';
import { SnapshotStore } from '../../snapshot/store';

const [mode, root, dataDir, count] = process.argv.slice(2) as [string, string, string, string];
const files = Array.from({ length: Number(count) }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);

async function patchLoop(): Promise<void> {
  for (;;) {
    const started = performance.now();
    const version = Number(readFileSync(path.join(root, files[0] as string), 'utf8').split(' ')[1]);
    const body = files.flatMap((f) => [
      `*** Update File: ${f}`,
      '@@',
      `-version ${version}`,
      `+version ${version + 1}`,
    ]);
    const r = await applyPatch(['*** Begin Patch', ...body, '*** End Patch'].join('\n'), {
      root,
      journalDir: path.join(dataDir, 'journal'),
    });
    if (!r.ok) throw new Error(r.error.message);
    process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
  }
}

async function revertLoop(): Promise<void> {
  const store = await SnapshotStore.open({ worktree: root, dataDir, log: () => undefined });
  const [a, b] = JSON.parse(readFileSync(path.join(dataDir, 'trees.json'), 'utf8')) as [string, string];
  for (let i = 0; ; i++) {
    const started = performance.now();
    const r = await store.revert([{ hash: i % 2 === 0 ? a : b, files }]);
    if (r.failed.length > 0) throw new Error(JSON.stringify(r.failed));
    process.stdout.write(`done ${Math.round(performance.now() - started)}\n`);
  }
}

void (mode === 'patch' ? patchLoop() : revertLoop());
