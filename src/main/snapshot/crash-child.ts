/**
 * Child process for the crash tests (SIGKILL during track): opens the store for argv[2] (work tree) in argv[3]
 * (data folder), prints "tracking" and tracks, again and again, changing one file between tracks, until killed.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore } from './store';

async function main(): Promise<void> {
  const [worktree, dataDir] = process.argv.slice(2) as [string, string];
  const store = await SnapshotStore.open({ worktree, dataDir, log: () => undefined });
  for (let i = 0; ; i++) {
    process.stdout.write('tracking\n');
    await store.track();
    writeFileSync(join(worktree, 'counter.txt'), `${i}\n`);
  }
}

void main();
