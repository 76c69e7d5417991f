/**
 * Child process for pack-faults.test.ts: opens the store for argv[2] (work tree) in argv[3] (data folder) and
 * tracks once. The test runs it under a file-size limit (`ulimit -f`, SIGXFSZ ignored), so writing the step's pack
 * fails midway with EFBIG as on a full disk. Prints the error code of the failed track (or "ok").
 */
import { SnapshotStore } from './store';

async function main(): Promise<void> {
  const [worktree, dataDir] = process.argv.slice(2) as [string, string];
  const store = await SnapshotStore.open({ worktree, dataDir, log: () => undefined });
  try {
    await store.track();
    process.stdout.write('ok\n');
  } catch (e) {
    process.stdout.write(`${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
  }
  await store.close();
}

void main();
