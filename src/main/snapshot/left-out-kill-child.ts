/**
 * Child process for left-out-kill.test.ts: opens the store for argv[2] (work tree) in argv[3] (data folder); a
 * secret ignored by `.gitignore` appears and is tracked (the tree is one whose record is already on disk, now with
 * the secret left out), then `.gitignore` is emptied and tracked, and the process kills itself — before any idle
 * save. Prints the two tree ids.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore } from './store';

async function main(): Promise<void> {
  const [worktree, dataDir] = process.argv.slice(2) as [string, string];
  const store = await SnapshotStore.open({ worktree, dataDir, ignoreDefaults: [], log: () => undefined });
  writeFileSync(join(worktree, 'secrets.env'), 'password');
  const t0 = await store.track();
  writeFileSync(join(worktree, '.gitignore'), '# nothing ignored\n');
  const t1 = await store.track();
  process.stdout.write(`${t0} ${t1}\n`);
  process.kill(process.pid, 'SIGKILL');
}

void main();
