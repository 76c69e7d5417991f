/**
 * Regular-expression matching off the main thread, under a time budget. JavaScript regexes backtrack, and a
 * pattern such as `^(a+)+$` on a long line runs for longer than the universe — synchronously, so in the main
 * process it would freeze the whole app and no timer could stop it. Here the matching runs in a worker thread;
 * when the budget is spent the worker is terminated (which does stop a running regex) and the caller is told.
 *
 * The worker is inline JavaScript (eval), so it needs no separate bundle entry in any build.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.pattern, workerData.flags);
parentPort.on('message', ({ id, lines, limit }) => {
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < limit; i++) {
    re.lastIndex = 0;
    if (re.test(lines[i])) hits.push(i);
  }
  parentPort.postMessage({ id, hits });
});
`;

/** Matches lines against one regex in a worker; spend at most `budgetMs` of waiting in all. Call `close()`. */
export class RegexRunner {
  private readonly worker: Worker;
  private spentMs = 0;
  private nextId = 0;
  /** True once the budget ran out (the worker is then gone and every later `match` answers undefined). */
  exhausted = false;

  constructor(
    pattern: string,
    flags: string,
    private readonly budgetMs: number,
  ) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, flags } });
    this.worker.unref();
  }

  /**
   * Indexes of `lines` the regex matches (at most `limit`), or undefined when the budget ran out during this
   * call (the worker is terminated). The pattern must already be known to compile (the worker throws otherwise).
   */
  async match(lines: string[], limit: number): Promise<number[] | undefined> {
    if (this.exhausted) return undefined;
    const id = this.nextId++;
    const started = Date.now();
    const answer = await new Promise<number[] | undefined>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
      };
      const timer = setTimeout(
        () => {
          done();
          resolve(undefined);
        },
        Math.max(0, this.budgetMs - this.spentMs),
      );
      const onMessage = (m: { id: number; hits: number[] }): void => {
        if (m.id !== id) return;
        done();
        resolve(m.hits);
      };
      const onError = (e: Error): void => {
        done();
        reject(e);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.postMessage({ id, lines, limit });
    });
    this.spentMs += Date.now() - started;
    if (answer === undefined) {
      this.exhausted = true;
      await this.worker.terminate();
    }
    return answer;
  }

  /** Stop the worker (safe to call twice). */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
