/**
 * One language-server process for one (server, root): JSON-RPC over stdio (vscode-jsonrpc), the LSP handshake,
 * answers to the server's requests, document sync, and the diagnostics store.
 *
 * The handshake sends `processId: process.pid` (Landfall's pid: a server given its own pid outlives a killed
 * client — DESIGN §7), or null for a server in its own PID namespace, where that pid names another process or
 * none (there the namespace's init ends the server when Landfall goes away; proc/pid-namespace.ts). Settings requests are answered with an object per item, never null (the html and prisma
 * servers crash on null). Text changes are sent as full text; servers that asked for incremental sync get it
 * as one edit whose range covers the whole old document (a range-less change crashes vtsls).
 *
 * Stopping: `shutdown` request, `exit` notification, then SIGTERM and SIGKILL to the process group. When the
 * process dies, every pending wait is settled as crashed and the connection is disposed — requests pending on a
 * dead server never complete on their own.
 */
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type {
  Diagnostic as LspDiagnostic,
  InitializeResult,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from 'vscode-languageserver-protocol';
import type { ResolvedCommand } from './discover';
import { exitWithin, signalGroup, spawnServer, sweepGroup, terminateGroup } from './process';
import type { ProcessExit, ServerProcess } from './process';
import type { InitContext, ServerSpec } from './servers';
import { answerConfiguration, clientCapabilities, endPosition } from './protocol';

/** An open document as the server knows it. `changeSeq` is the message sequence when its last change was sent. */
export interface OpenDoc {
  uri: string;
  languageId: string;
  version: number;
  text: string;
  changeSeq: number;
}

/** The last push for a document: diagnostics, the version the server named (if any), and its arrival sequence. */
export interface PushRecord {
  diagnostics: LspDiagnostic[];
  version: number | undefined;
  seq: number;
}

/** Why `start` failed: the server could not be spawned, crashed or did not answer `initialize` in time. */
export class ServerStartError extends Error {}

/** Convert an absolute path to the file:// URI servers expect. */
export function uriOf(absPath: string): string {
  return pathToFileURL(absPath).href;
}

/** One server process for one (server, root); see the module docstring. */
export class LspClient {
  readonly docs = new Map<string, OpenDoc>();
  readonly pushes = new Map<string, PushRecord>();
  /** Pull providers: static (key 'static') and dynamically registered ones (key = registration id) → identifier. */
  readonly pullProviders = new Map<string, string | undefined>();
  capabilities: ServerCapabilities = {};
  /** Documents that got fresh diagnostics at least once (later waits use the shorter change timeout). */
  readonly answered = new Set<string>();
  /** Wall time spawn → initialized, ms. */
  initMs = 0;
  lastUse = Date.now();
  stopping = false;
  private seq = 0;
  private readonly pushListeners = new Set<(uri: string) => void>();
  private readonly registrationListeners = new Set<() => void>();
  private readonly exitListeners = new Set<() => void>();

  private constructor(
    readonly spec: ServerSpec,
    readonly root: string,
    readonly proc: ServerProcess,
    readonly conn: MessageConnection,
  ) {}

  /** The current message sequence number (incremented on every message sent or received). */
  get sequence(): number {
    return this.seq;
  }

  get exited(): Promise<ProcessExit> {
    return this.proc.exited;
  }

  get alive(): boolean {
    return !this.proc.hasExited() && !this.stopping;
  }

  /**
   * Spawn and initialize a server. Resolves once `initialized` was sent; throws ServerStartError (with the
   * server's stderr tail) on crash or when `initialize` takes longer than `initTimeoutMs`.
   */
  static async start(
    spec: ServerSpec,
    ctx: InitContext,
    cmd: ResolvedCommand,
    initTimeoutMs: number,
  ): Promise<LspClient> {
    const started = performance.now();
    const proc = spawnServer(cmd, ctx.root);
    const conn = createMessageConnection(
      new StreamMessageReader(proc.child.stdout),
      new StreamMessageWriter(proc.child.stdin),
    );
    const client = new LspClient(spec, ctx.root, proc, conn);
    client.listen();
    conn.listen();
    void proc.exited.then(() => {
      conn.dispose();
      for (const l of client.exitListeners) l();
    });
    const rootUri = uriOf(ctx.root);
    const init = conn.sendRequest('initialize', {
      // Isolated (proc/pid-namespace.ts), Landfall's pid means nothing inside the server's namespace (another
      // process, or none: the server would exit at once); its init ends the server when Landfall goes away.
      processId: proc.isolated ? null : process.pid,
      clientInfo: { name: 'landfall' },
      rootUri,
      rootPath: ctx.root,
      workspaceFolders: [{ uri: rootUri, name: ctx.root.split('/').pop() ?? 'root' }],
      initializationOptions: spec.initializationOptions?.(ctx) ?? {},
      capabilities: clientCapabilities(),
    }) as Promise<InitializeResult>;
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ServerStartError(`no answer to initialize within ${initTimeoutMs} ms`)),
        initTimeoutMs,
      );
      void proc.exited.then(() => reject(new ServerStartError('exited during start')));
    });
    try {
      const result = await Promise.race([init, failed]);
      client.capabilities = result.capabilities ?? {};
      if (client.capabilities.diagnosticProvider) {
        const provider = client.capabilities.diagnosticProvider as { identifier?: string };
        client.pullProviders.set('static', provider.identifier);
      }
      await conn.sendNotification('initialized', {});
      await conn.sendNotification('workspace/didChangeConfiguration', { settings: spec.settings ?? {} });
      client.initMs = performance.now() - started;
      return client;
    } catch (err) {
      await client.kill();
      if (proc.hasExited() && !(err instanceof ServerStartError && err.message.startsWith('no answer'))) {
        const e = await proc.exited;
        throw new ServerStartError(
          `exited during start (code ${e.code}, signal ${e.signal}) ${proc.stderrTail().slice(-300)}`.trim(),
        );
      }
      throw err instanceof ServerStartError
        ? err
        : new ServerStartError(err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
    }
  }

  private listen(): void {
    const { conn, spec } = this;
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.seq += 1;
      this.pushes.set(p.uri, { diagnostics: p.diagnostics, version: p.version ?? undefined, seq: this.seq });
      for (const l of this.pushListeners) l(p.uri);
    });
    conn.onRequest('workspace/configuration', (p: { items: { section?: string }[] }) =>
      answerConfiguration(spec.settings ?? {}, p.items),
    );
    conn.onRequest('workspace/workspaceFolders', () => [
      { uri: uriOf(this.root), name: this.root.split('/').pop() ?? 'root' },
    ]);
    conn.onRequest(
      'client/registerCapability',
      (p: { registrations: { id: string; method: string; registerOptions?: { identifier?: string } }[] }) => {
        for (const r of p.registrations) {
          if (r.method === 'textDocument/diagnostic') this.pullProviders.set(r.id, r.registerOptions?.identifier);
        }
        for (const l of this.registrationListeners) l();
        return null;
      },
    );
    conn.onRequest(
      'client/unregisterCapability',
      (p: { unregisterations?: { id: string }[]; unregistrations?: { id: string }[] }) => {
        for (const u of p.unregisterations ?? p.unregistrations ?? []) this.pullProviders.delete(u.id);
        return null;
      },
    );
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('workspace/diagnostic/refresh', () => null);
    conn.onRequest('window/showMessageRequest', () => null);
    conn.onRequest('window/showDocument', () => ({ success: false }));
    conn.onRequest('workspace/applyEdit', () => ({
      applied: false,
      failureReason: 'Landfall does not let servers edit files',
    }));
    conn.onError(() => undefined);
  }

  /** Subscribe to pushes (uri of each). Returns the unsubscribe function. */
  onPush(listener: (uri: string) => void): () => void {
    this.pushListeners.add(listener);
    return () => this.pushListeners.delete(listener);
  }

  /** Subscribe to the process's exit (any cause). Returns the unsubscribe function; fires at once if dead. */
  onExit(listener: () => void): () => void {
    if (this.proc.hasExited()) {
      listener();
      return () => undefined;
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Subscribe to new pull-provider registrations. Returns the unsubscribe function. */
  onPullRegistration(listener: () => void): () => void {
    this.registrationListeners.add(listener);
    return () => this.registrationListeners.delete(listener);
  }

  /**
   * Send the document's current text: didOpen (version 1) the first time, didChange (version + 1) after. The
   * text is what the caller read from disk after the write. Returns the document state the change produced.
   */
  async sync(uri: string, languageId: string, text: string): Promise<OpenDoc> {
    this.lastUse = Date.now();
    const doc = this.docs.get(uri);
    if (!doc) {
      const opened: OpenDoc = { uri, languageId, version: 1, text, changeSeq: ++this.seq };
      this.docs.set(uri, opened);
      this.pushes.delete(uri);
      await this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
      return opened;
    }
    const next: OpenDoc = { ...doc, version: doc.version + 1, text, changeSeq: ++this.seq };
    this.docs.set(uri, next);
    const change =
      this.syncKind() === 2
        ? { range: { start: { line: 0, character: 0 }, end: endPosition(doc.text) }, text }
        : { text };
    await this.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: next.version },
      contentChanges: [change],
    });
    return next;
  }

  private syncKind(): number {
    const s = this.capabilities.textDocumentSync;
    if (typeof s === 'number') return s;
    return s?.change ?? 1;
  }

  /** didSave, with the text when the server asked for it. */
  async didSave(uri: string): Promise<void> {
    const s = this.capabilities.textDocumentSync;
    const save = typeof s === 'object' ? s.save : undefined;
    const includeText = typeof save === 'object' && save.includeText === true;
    const text = this.docs.get(uri)?.text;
    await this.conn.sendNotification(
      'textDocument/didSave',
      includeText && text !== undefined ? { textDocument: { uri }, text } : { textDocument: { uri } },
    );
  }

  /** didClose a document and forget its diagnostics. */
  async didClose(uri: string): Promise<void> {
    if (!this.docs.delete(uri)) return;
    this.pushes.delete(uri);
    this.answered.delete(uri);
    if (this.alive) await this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** workspace/didChangeWatchedFiles: type 1 created, 2 changed, 3 deleted. */
  async watched(changes: { uri: string; type: 1 | 2 | 3 }[]): Promise<void> {
    if (changes.length > 0 && this.alive)
      await this.conn.sendNotification('workspace/didChangeWatchedFiles', { changes });
  }

  /** Stop politely (shutdown + exit within `graceMs`), then SIGTERM/SIGKILL the group. Never throws. */
  async stop(graceMs = 1_000): Promise<void> {
    if (this.proc.hasExited()) return;
    this.stopping = true;
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.conn.sendRequest('shutdown'),
        new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
        this.proc.exited,
      ]);
      clearTimeout(timer);
      if (!this.proc.hasExited()) await this.conn.sendNotification('exit');
    } catch {
      // a dead or confused server goes straight to signals
    }
    if (!(await exitWithin(this.proc, graceMs))) await terminateGroup(this.proc, graceMs);
    // The leader may be gone while a grandchild (tsserver) lingers: sweep the group regardless.
    signalGroup(this.proc.pid, 'SIGKILL');
    await sweepGroup(this.proc.pid, graceMs);
    this.conn.dispose();
  }

  /** Kill the group at once (crash handling, failed start). */
  async kill(): Promise<void> {
    this.stopping = true;
    await terminateGroup(this.proc, 500);
    await sweepGroup(this.proc.pid, 500);
    this.conn.dispose();
  }

  /** Synchronous SIGKILL of the group, for the process 'exit' hook. */
  killSync(): void {
    signalGroup(this.proc.pid, 'SIGKILL');
  }
}
