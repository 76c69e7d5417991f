/**
 * Per-file async mutex keyed by real path (DESIGN §3, fixtures/bugs/README.md B29): the read → match → permission ask → write →
 * diagnostics sequence of one tool call runs inside it, so two parallel edits of one file are serialised
 * (FIFO) and neither overwrites the other; different files proceed in parallel. In-process only: Landfall's
 * main process is the only writer it coordinates.
 */

const tails = new Map<string, Promise<void>>();

/**
 * Run `fn` while holding the lock of `realPath` (FIFO with other holders of the same key). The lock is released
 * when `fn` settles, whether it resolves or throws; `fn`'s result or exception is passed through.
 */
export async function withFileLock<T>(realPath: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(realPath) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(realPath, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (tails.get(realPath) === tail) tails.delete(realPath);
  }
}

/**
 * Hold the locks of several files (duplicates ignored), taken in sorted order so two callers with overlapping
 * sets cannot deadlock. Used by apply_patch, whose files land as one transaction.
 */
export async function withFileLocks<T>(realPaths: string[], fn: () => Promise<T>): Promise<T> {
  const keys = [...new Set(realPaths)].sort();
  const take = (i: number): Promise<T> =>
    i >= keys.length ? fn() : withFileLock(keys[i] as string, () => take(i + 1));
  return take(0);
}

/** True while some caller holds or waits for the lock of `realPath` (for tests and diagnostics). */
export function isLocked(realPath: string): boolean {
  return tails.has(realPath);
}
