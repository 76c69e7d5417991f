/**
 * Work a store puts off until it is idle: merging a step's small pack into fewer (git/object-db.ts) and rewriting
 * the stat cache whole once its journal has grown (stat-cache.ts). Neither is needed for correctness — the journal
 * and the small packs are complete — so neither belongs on a step's path. `IdleTask` runs its task once no
 * `poke` came for IDLE_MS; each poke pushes it back. The timer is unref'd (it never keeps a process alive) and
 * cancelled by `cancel` (the store's close). What the task may not put off forever has a hard limit where it is
 * written (four times the merge threshold; a journal the size of the cache), enforced synchronously.
 */

/** Quiet time (ms) after the last operation before the put-off work runs: shorter than a model's answer. */
export const IDLE_MS = 250;

/** A task run once its owner has been idle for IDLE_MS. */
export class IdleTask {
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `task` runs the work (the owner queues it behind its own lock); its failure is the owner's to report. */
  constructor(private readonly task: () => void) {}

  /** The owner did something: (re)start the wait. */
  poke(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.task();
    }, IDLE_MS);
    this.timer.unref();
  }

  /** Drops a pending run. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
