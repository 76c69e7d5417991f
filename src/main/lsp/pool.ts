/**
 * The server processes of one project: one per (server id, root), started on first use, stopped after an idle
 * period and on shutdown.
 *
 * Failure handling: a missing binary (or a missing helper such as shellcheck) is looked up once per
 * (server, root), logged once, and then answered from memory — never retried in a loop. A process that exits
 * without being asked to is noticed through its exit event; its diagnostics go with it (they live on the client
 * object). The next use restarts it after a backoff (0 s, 1 s, 4 s for the 1st, 2nd, 3rd failure within the
 * window); after `maxFailures` failures within the window the server is marked broken for this project.
 */
import type { Result } from '../../shared/errors';
import { fail, ok } from '../../shared/errors';
import { LspClient } from './client';
import { resolveCommand, whichSync } from './discover';
import type { ResolvedCommand } from './discover';
import { sweepGroup } from './process';
import { timeoutsFor } from './servers';
import type { ServerSpec, ServerTimeouts } from './servers';

/** Tunables of the pool. Times in ms. */
export interface PoolOptions {
  projectRoot: string;
  /** Stop a server unused for this long (default 10 minutes). */
  idleMs: number;
  /** Multiplies every derived timeout (default 1). */
  timeoutScale: number;
  /** Failures within `failureWindowMs` that mark a server broken (default 3 within 3 minutes). */
  maxFailures: number;
  failureWindowMs: number;
  /** Delay before the n-th restart (index n-1; last value repeats). */
  backoffMs: number[];
  log: (line: string) => void;
}

interface Entry {
  key: string;
  spec: ServerSpec;
  root: string;
  client?: LspClient;
  starting?: Promise<Result<LspClient>>;
  command?: Result<ResolvedCommand>;
  failures: number[];
  broken?: string;
  idleTimer?: NodeJS.Timeout;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The server processes of one project, keyed by (server id, root); see the module docstring. */
export class ServerPool {
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(private readonly opts: PoolOptions) {}

  /** Timeouts for a server under this pool's scale. */
  timeouts(spec: ServerSpec): ServerTimeouts {
    return timeoutsFor(spec, this.opts.timeoutScale);
  }

  /** Running clients (for other-file reports, tests and shutdown). */
  clients(): LspClient[] {
    return [...this.entries.values()].flatMap((e) => (e.client?.alive ? [e.client] : []));
  }

  private entry(spec: ServerSpec, root: string): Entry {
    const key = `${spec.id}\u0000${root}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { key, spec, root, failures: [] };
      this.entries.set(key, e);
    }
    return e;
  }

  /**
   * The running client for (spec, root), starting it if needed. Failures are data: `unavailable` (not
   * installed, reported once in the log), `internal` with data.broken when marked broken or the start failed.
   */
  async client(spec: ServerSpec, root: string, signal?: AbortSignal): Promise<Result<LspClient>> {
    if (this.closed) return fail('unavailable', 'language servers are shut down', 'Reopen the project.');
    const e = this.entry(spec, root);
    if (e.client?.alive) {
      this.touchIdle(e);
      return ok(e.client);
    }
    e.starting ??= this.start(e, signal).finally(() => {
      e.starting = undefined;
    });
    return e.starting;
  }

  private async start(e: Entry, signal?: AbortSignal): Promise<Result<LspClient>> {
    if (e.broken)
      return fail('internal', e.broken, 'Fix the server installation, then restart Landfall.', { broken: true });
    e.command ??= this.resolve(e);
    if (!e.command.ok) return e.command;
    const now = Date.now();
    e.failures = e.failures.filter((t) => now - t < this.opts.failureWindowMs);
    if (e.failures.length >= this.opts.maxFailures) {
      e.broken = `${e.spec.id} failed ${e.failures.length} times within ${Math.round(this.opts.failureWindowMs / 1000)} s`;
      this.opts.log(`lsp: ${e.broken}; marked broken`);
      return fail('internal', e.broken, 'Fix the server installation, then restart Landfall.', { broken: true });
    }
    const last = e.failures.at(-1);
    if (last !== undefined) {
      const backoff = this.opts.backoffMs[Math.min(e.failures.length - 1, this.opts.backoffMs.length - 1)] ?? 0;
      const wait = backoff - (now - last);
      if (wait > 0) await sleep(wait);
      if (signal?.aborted || this.closed)
        return fail('interrupted', 'cancelled while a language server restarted', 'Retry the call.');
    }
    try {
      const client = await LspClient.start(
        e.spec,
        { root: e.root, projectRoot: this.opts.projectRoot },
        e.command.value,
        this.timeouts(e.spec).initMs,
      );
      e.client = client;
      client.onExit(() => this.onExit(e, client));
      this.touchIdle(e);
      if (this.closed) {
        await client.stop();
        return fail('unavailable', 'language servers are shut down', 'Reopen the project.');
      }
      return ok(client);
    } catch (err) {
      e.failures.push(Date.now());
      const message = err instanceof Error ? err.message : String(err);
      this.opts.log(`lsp: ${e.spec.id} (${e.root}) failed to start: ${message}`);
      return fail('internal', `${e.spec.id} failed to start: ${message}`, 'Check the server installation.', {
        broken: false,
      });
    }
  }

  private resolve(e: Entry): Result<ResolvedCommand> {
    const missing = (e.spec.requires ?? []).filter((bin) => whichSync(bin) === undefined);
    const found =
      missing.length > 0
        ? fail(
            'unavailable',
            `${e.spec.id} needs ${missing.join(', ')}, which is not installed`,
            `Install ${missing.join(', ')} (system package).`,
          )
        : resolveCommand(e.spec.command, e.root, this.opts.projectRoot);
    if (!found.ok) this.opts.log(`lsp: ${e.spec.id} unavailable: ${found.error.message}`);
    return found;
  }

  private onExit(e: Entry, client: LspClient): void {
    if (e.client === client) e.client = undefined;
    clearTimeout(e.idleTimer);
    if (client.stopping) return;
    // What the dead leader spawned (tsserver, shellcheck) must not outlive it.
    void sweepGroup(client.proc.pid, 2_000);
    e.failures.push(Date.now());
    this.opts.log(
      `lsp: ${e.spec.id} (${e.root}) exited unexpectedly; its diagnostics are dropped, it restarts on next use`,
    );
  }

  private touchIdle(e: Entry): void {
    clearTimeout(e.idleTimer);
    e.idleTimer = setTimeout(() => {
      const c = e.client;
      if (c && Date.now() - c.lastUse >= this.opts.idleMs) {
        e.client = undefined;
        void c.stop();
      } else if (c) {
        this.touchIdle(e);
      }
    }, this.opts.idleMs);
    e.idleTimer.unref();
  }

  /** Keep a client's idle clock fresh while it is being waited on. */
  used(client: LspClient): void {
    client.lastUse = Date.now();
  }

  /** SIGKILL every server group synchronously (process 'exit' hook: no async work is possible there). */
  killAllSync(): void {
    for (const e of this.entries.values()) e.client?.killSync();
  }

  /** Stop every server (shutdown + exit, then signals) and refuse new starts. Resolves when all are gone. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries.values()];
    await Promise.all(entries.map((e) => e.starting?.catch(() => undefined)));
    await Promise.all(
      entries.map(async (e) => {
        clearTimeout(e.idleTimer);
        const c = e.client;
        e.client = undefined;
        if (c) await c.stop();
      }),
    );
  }
}
