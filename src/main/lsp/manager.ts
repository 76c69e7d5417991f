/**
 * LspManager: the language-server layer of one project (one per project root per app), and the
 * `DiagnosticsHook` the tools call (hook.ts).
 *
 * touch (a file was read): start its servers and didOpen it, without waiting — the first diagnostics after an
 * open are the slow ones (tsserver 1.2–2.9 s, pyright 1.6 s, DESIGN §7), so they are paid while the model thinks.
 *
 * afterWrite (files were written): for each file and each server that serves it, read the text from disk,
 * didOpen/didChange it (a new version), didSave, and wait for diagnostics of exactly that version (fresh.ts).
 * A file created by the call is announced with workspace/didChangeWatchedFiles (created), a file gone from disk
 * (apply_patch delete) with didClose + watched (deleted). A server found dead is restarted once within the call
 * and asked again. With `reportOtherFiles` (write), the other documents open on the same servers are asked
 * again (pull servers and the tsserver adapter) or, for push-only servers, taken from pushes that arrived after
 * this call's changes; those with errors are listed (at most 5). Only documents open on a server are known to
 * it, so "other files" are the files the session read or wrote.
 */
import { fileURLToPath } from 'node:url';
import type { Result } from '../../shared/errors';
import { ok } from '../../shared/errors';
import { readChecked } from '../fs/read-checked';
import { decodeBytes, DEFAULT_MAX_BYTES } from '../fs/text-file';
import type { AfterWriteOptions, DiagnosticsHook, DiagnosticsReport } from './hook';
import { uriOf } from './client';
import type { LspClient } from './client';
import { findRoot } from './discover';
import { hasPullPath, pullNow, waitFresh } from './fresh';
import type { FreshResult } from './fresh';
import { ServerPool } from './pool';
import type { PoolOptions } from './pool';
import { buildReport } from './report';
import type { FileOutcome, OtherFile } from './report';
import { BUILTIN_SERVERS, buildCatalog, languageIdOf, serversFor } from './servers';
import type { LspSettings, ServerSpec } from './servers';

/** Options of a manager. `root` is the real project root; the rest tune the pool (see PoolOptions). */
export interface LspManagerOptions extends Partial<Omit<PoolOptions, 'projectRoot'>> {
  root: string;
  settings?: LspSettings;
  /** Observer for every per-file outcome (UI status, benchmarks); called before afterWrite resolves. */
  onOutcome?: (outcome: FileOutcome) => void;
  /** The wait for a written file's diagnostics in ms, instead of the server's budget (tests of a timed-out wait). */
  waitMs?: number;
  /** How long diagnostics are still awaited in the background after a timed-out wait (ms; default 60 s). */
  lateMs?: number;
}

/** How long diagnostics are still awaited in the background after a timed-out wait (ms, before scaling). */
const LATE_MS = 60_000;

/** Open documents asked again per server for the other-files report (most recently synced first). */
const MAX_OTHER_DOCS = 30;

/**
 * Read a file as text for the server, decoded by the same rules as the read tool (src/main/fs/text-file.ts:
 * UTF-8 ± BOM, UTF-16 with BOM, legacy 8-bit text), so a server sees the characters the model sees; bytes no
 * text encoding reproduces fall back to lossy UTF-8. Undefined when the file is gone, moved or over 50 MB.
 */
async function readText(absPath: string): Promise<string | undefined> {
  // Checked and bounded (src/main/fs/read-checked.ts): a path swapped for a link, or a file past the tools' size
  // limit (also one reporting size 0), is not sent to a server.
  const read = await readChecked(absPath, DEFAULT_MAX_BYTES);
  if (!read.ok) return undefined;
  const bytes = read.bytes;
  const decoded = decodeBytes(bytes);
  return decoded.ok ? decoded.value.text : new TextDecoder('utf-8').decode(bytes);
}

/** The outcome for a file whose only server is turned off in the settings. */
function turnedOffOutcome(spec: ServerSpec, absPath: string): FileOutcome {
  const reason = `the ${spec.id} language server is turned off in settings (lsp.disabled)`;
  return { absPath, serverId: spec.id, status: 'unavailable', diagnostics: [], ms: 0, reason };
}

/** The language-server layer of one project and the tools' DiagnosticsHook; see the module docstring. */
export class LspManager {
  private readonly pool: ServerPool;
  private readonly sessions = new Map<string, Set<string>>();
  private readonly known = new Set<string>();
  private readonly warming = new Set<Promise<void>>();
  private readonly exitHook = (): void => this.pool.killAllSync();
  private readonly onOutcome: ((outcome: FileOutcome) => void) | undefined;
  private readonly lateMs: number;
  private readonly waitMs: number | undefined;

  private constructor(
    readonly root: string,
    private readonly catalog: ServerSpec[],
    opts: LspManagerOptions,
    /** Built-in servers the user turned off (settings `lsp.disabled`): their files are reported as such. */
    private readonly turnedOff: ServerSpec[] = [],
  ) {
    this.onOutcome = opts.onOutcome;
    this.lateMs = opts.lateMs ?? LATE_MS * (opts.timeoutScale ?? 1);
    this.waitMs = opts.waitMs;
    this.pool = new ServerPool({
      projectRoot: root,
      projectTrusted: opts.projectTrusted ?? false,
      idleMs: opts.idleMs ?? 10 * 60_000,
      timeoutScale: opts.timeoutScale ?? 1,
      maxFailures: opts.maxFailures ?? 3,
      failureWindowMs: opts.failureWindowMs ?? 3 * 60_000,
      backoffMs: opts.backoffMs ?? [0, 1_000, 4_000],
      log: opts.log ?? ((line) => console.warn(line)),
    });
    process.once('exit', this.exitHook);
  }

  /** Create a manager for a project root. Fails with `invalid_input` when the LSP settings are malformed. */
  static create(opts: LspManagerOptions): Result<LspManager> {
    const catalog = buildCatalog(opts.settings);
    if (!catalog.ok) return catalog;
    const off = new Set(opts.settings?.disabled ?? []);
    return ok(
      new LspManager(
        opts.root,
        catalog.value,
        opts,
        BUILTIN_SERVERS.filter((s) => off.has(s.id)),
      ),
    );
  }

  /** The hook for one session's tool context; documents it opens are closed by `endSession(sessionId)`. */
  hook(sessionId: string): DiagnosticsHook {
    return {
      touch: (absPath) => this.touch(absPath, sessionId),
      afterWrite: (absPaths, options) => this.afterWrite(absPaths, options, sessionId),
    };
  }

  /** Running server clients (tests, benchmarks, the UI's status). */
  clients(): LspClient[] {
    return this.pool.clients();
  }

  private own(sessionId: string, absPath: string): void {
    let set = this.sessions.get(sessionId);
    if (!set) this.sessions.set(sessionId, (set = new Set()));
    set.add(absPath);
  }

  /** Warm up: start the file's servers and didOpen it. Never waits, never throws. */
  touch(absPath: string, sessionId = 'default'): void {
    const specs = serversFor(this.catalog, absPath);
    if (specs.length === 0) return;
    const job = (async () => {
      const text = await readText(absPath);
      if (text === undefined) return;
      this.known.add(absPath);
      this.own(sessionId, absPath);
      await Promise.all(
        specs.map(async (spec) => {
          const got = await this.pool.client(spec, findRoot(absPath, this.root, spec.rootMarkers));
          const uri = uriOf(absPath);
          if (got.ok && !got.value.docs.has(uri)) await got.value.sync(uri, languageIdOf(spec, absPath), text);
        }),
      );
    })().catch(() => undefined);
    this.warming.add(job);
    void job.finally(() => this.warming.delete(job));
  }

  /** Sync written files and wait for their fresh diagnostics; see the module docstring. Never throws. */
  async afterWrite(absPaths: string[], options: AfterWriteOptions, sessionId = 'default'): Promise<DiagnosticsReport> {
    const files = [...new Set(absPaths)];
    const before = new Map<LspClient, number>();
    const waiting = [...new Set(files.flatMap((abs) => serversFor(this.catalog, abs).map((spec) => spec.id)))];
    if (waiting.length > 0) options.onWaiting?.(waiting);
    const late = options.onLate ? (o: FileOutcome) => options.onLate?.(buildReport(this.root, [o], [])) : undefined;
    const outcomes = await Promise.all(
      files.flatMap((abs) => {
        const specs = serversFor(this.catalog, abs);
        // No server left for the file because the user turned its server off: say so, never "no errors".
        if (specs.length === 0)
          return serversFor(this.turnedOff, abs)
            .slice(0, 1)
            .map(async (spec) => turnedOffOutcome(spec, abs));
        return specs.map((spec) => this.diagnose(spec, abs, sessionId, before, options.signal, 0, late));
      }),
    );
    const others = options.reportOtherFiles && !options.signal?.aborted ? await this.otherFiles(files, before) : [];
    if (this.onOutcome) for (const o of outcomes) this.onOutcome(o);
    return buildReport(this.root, outcomes, others);
  }

  private async diagnose(
    spec: ServerSpec,
    abs: string,
    sessionId: string,
    before: Map<LspClient, number>,
    signal: AbortSignal | undefined,
    attempt: number,
    late?: (outcome: FileOutcome) => void,
  ): Promise<FileOutcome> {
    const base = { absPath: abs, serverId: spec.id };
    const got = await this.pool.client(spec, findRoot(abs, this.root, spec.rootMarkers), signal);
    if (!got.ok) {
      const status = got.error.code === 'unavailable' ? 'unavailable' : got.error.data?.broken ? 'broken' : 'crashed';
      // A failed start is retried once within the call (after the pool's backoff), like a crash mid-wait.
      if (status === 'crashed' && attempt === 0 && !signal?.aborted)
        return this.diagnose(spec, abs, sessionId, before, signal, 1, late);
      return { ...base, status, diagnostics: [], ms: 0, reason: got.error.message };
    }
    const client = got.value;
    if (!before.has(client)) before.set(client, client.sequence);
    const uri = uriOf(abs);
    const text = await readText(abs);
    let result: FreshResult;
    let sentAt = 0;
    try {
      if (text === undefined) {
        this.known.delete(abs);
        await client.didClose(uri);
        await client.watched([{ uri, type: 3 }]);
        return { ...base, status: 'deleted', diagnostics: [], ms: 0 };
      }
      const wasOpen = client.docs.has(uri);
      if (!wasOpen && !this.known.has(abs)) await client.watched([{ uri, type: 1 }]);
      this.known.add(abs);
      this.own(sessionId, abs);
      sentAt = performance.now();
      const doc = await client.sync(uri, languageIdOf(spec, abs), text);
      await client.didSave(uri);
      const t = this.pool.timeouts(spec);
      const timeout = this.waitMs ?? (client.answered.has(uri) ? t.changeMs : t.firstMs);
      result = await waitFresh(client, doc, timeout, signal);
      if (result.status === 'timeout') {
        result.ms = timeout;
        if (late) this.waitLate(client, doc, base, late);
      }
      if (result.status === 'fresh') client.answered.add(uri);
    } catch {
      result = { status: 'crashed', diagnostics: [], ms: 0 };
    }
    this.pool.used(client);
    if (result.status === 'crashed' && attempt === 0 && !signal?.aborted) {
      // Noticed dead mid-call: make sure it is gone, then restart it and ask again once.
      if (
        !(await Promise.race([
          client.exited.then(() => true),
          new Promise<false>((r) => setTimeout(() => r(false), 1_000)),
        ]))
      )
        await client.kill();
      return this.diagnose(spec, abs, sessionId, before, signal, 1, late);
    }
    const timing =
      result.answeredAt === undefined || !result.via ? {} : { serverMs: result.answeredAt - sentAt, via: result.via };
    return { ...base, status: result.status, diagnostics: result.diagnostics, ms: result.ms, ...timing };
  }

  /**
   * After a timed-out wait: keep waiting (at most `lateMs`: LATE_MS scaled like the other budgets) in the background and
   * hand diagnostics that arrive to `late` — the tool call already returned, its card updates. Never throws.
   */
  private waitLate(
    client: LspClient,
    doc: Parameters<typeof waitFresh>[1],
    base: { absPath: string; serverId: string },
    late: (outcome: FileOutcome) => void,
  ): void {
    const started = performance.now();
    void waitFresh(client, doc, this.lateMs)
      .then((r) => {
        if (r.status !== 'fresh') return;
        client.answered.add(doc.uri);
        late({ ...base, status: 'fresh', diagnostics: r.diagnostics, ms: performance.now() - started });
      })
      .catch(() => undefined);
  }

  private async otherFiles(changed: string[], before: Map<LspClient, number>): Promise<OtherFile[]> {
    const changedUris = new Set(changed.map(uriOf));
    const out: OtherFile[] = [];
    for (const [client, seq] of before) {
      if (!client.alive) continue;
      const docs = [...client.docs.values()]
        .filter((d) => !changedUris.has(d.uri))
        .sort((a, b) => b.changeSeq - a.changeSeq)
        .slice(0, MAX_OTHER_DOCS);
      const budget = this.pool.timeouts(client.spec).changeMs;
      const answers = await Promise.all(
        docs.map(async (d) => {
          if (!hasPullPath(client)) {
            const rec = client.pushes.get(d.uri);
            return rec && rec.seq > seq ? rec.diagnostics : undefined;
          }
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), budget)));
          const got = await Promise.race([pullNow(client, d.uri).catch(() => undefined), late]);
          clearTimeout(timer);
          return got;
        }),
      );
      docs.forEach((d, i) => {
        const diagnostics = answers[i];
        if (diagnostics) out.push({ absPath: fileURLToPath(d.uri), serverId: client.spec.id, diagnostics });
      });
    }
    return out;
  }

  /** A session ended: didClose the documents only it opened. */
  async endSession(sessionId: string): Promise<void> {
    const mine = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    if (!mine) return;
    const stillUsed = new Set([...this.sessions.values()].flatMap((s) => [...s]));
    const closing = [...mine].filter((p) => !stillUsed.has(p)).map(uriOf);
    await Promise.all(this.pool.clients().flatMap((c) => closing.map((uri) => c.didClose(uri).catch(() => undefined))));
  }

  /** Stop every server (LSP shutdown + exit, then SIGTERM/SIGKILL to each process group). */
  async shutdown(): Promise<void> {
    process.off('exit', this.exitHook);
    await Promise.all([...this.warming]);
    await this.pool.shutdown();
  }
}
