/**
 * Waiting for diagnostics that belong to THIS version of a document (DESIGN §7).
 *
 * Two paths race; the first to finish wins:
 *  - pull: `textDocument/diagnostic` for every provider the server declared or registered dynamically (a
 *    registration arriving mid-wait starts a pull then), or the tsserver adapter for typescript-language-server
 *    (`typescript.tsserverRequest` with the synchronous diagnostic commands). A pull is sent after the change,
 *    and servers handle messages in order, so its answer describes the new text by construction.
 *  - push: a publishDiagnostics whose version is this version (or newer), or — only when the server has no
 *    pull path, because an unversioned push already in flight may describe the old text — one that arrived
 *    after the change was sent; then a quiet period with no further push for the file (servers push in parts:
 *    syntax first, semantics later).
 * The wait also ends on the timeout, the caller's abort signal, or the server's death, and says which. Pending
 * pull requests are cancelled when the wait ends (a dead or slow server would keep them forever).
 */
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import type { Diagnostic as LspDiagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import type { LspClient, OpenDoc } from './client';

export type FreshStatus = 'fresh' | 'timeout' | 'crashed' | 'aborted';

/** Outcome of one wait: the diagnostics (empty unless fresh), which path answered, elapsed ms. */
export interface FreshResult {
  status: FreshStatus;
  diagnostics: LspDiagnostic[];
  via?: 'push' | 'pull';
  ms: number;
  /** performance.now() when the answer that won arrived (the pull response, or the last fresh push). */
  answeredAt?: number;
}

const SERVER_CANCELLED = -32802;
const CONTENT_MODIFIED = -32801;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One pull request, retried when the server says the content moved under it (pyright does this). */
async function pullOne(
  client: LspClient,
  uri: string,
  identifier: string | undefined,
  token: CancellationTokenSource,
): Promise<LspDiagnostic[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const params = identifier === undefined ? { textDocument: { uri } } : { textDocument: { uri }, identifier };
      const report = (await client.conn.sendRequest(
        'textDocument/diagnostic',
        params,
        token.token,
      )) as DocumentDiagnosticReport;
      return report.kind === 'full' ? report.items : [];
    } catch (err) {
      const retry = err instanceof ResponseError && (err.code === SERVER_CANCELLED || err.code === CONTENT_MODIFIED);
      if (!retry || attempt >= 5 || token.token.isCancellationRequested) throw err;
      await sleep(20 * (attempt + 1));
    }
  }
}

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const TS_SEVERITY: Record<string, 1 | 2 | 3 | 4> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/** tsserver's synchronous syntactic + semantic diagnostics through typescript-language-server, as LSP diagnostics. */
async function tsserverPull(client: LspClient, uri: string, token: CancellationTokenSource): Promise<LspDiagnostic[]> {
  const kinds = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync'];
  const answers = await Promise.all(
    kinds.map((kind) =>
      client.conn.sendRequest(
        'workspace/executeCommand',
        { command: 'typescript.tsserverRequest', arguments: [kind, { file: uri }] },
        token.token,
      ),
    ),
  );
  const out: LspDiagnostic[] = [];
  for (const answer of answers) {
    const body = (answer as { body?: unknown } | null)?.body ?? answer;
    if (!Array.isArray(body)) throw new Error('tsserver gave no diagnostics list');
    for (const d of body as TsDiagnostic[]) {
      out.push({
        range: {
          start: { line: d.start.line - 1, character: d.start.offset - 1 },
          end: { line: d.end.line - 1, character: d.end.offset - 1 },
        },
        severity: TS_SEVERITY[d.category ?? 'error'] ?? 1,
        message: d.text,
        source: d.source ?? 'typescript',
        ...(d.code === undefined ? {} : { code: d.code }),
      });
    }
  }
  return out;
}

/** True when the server can be asked (rather than waited on) for a document's diagnostics. */
export function hasPullPath(client: LspClient): boolean {
  return client.pullProviders.size > 0 || client.spec.pullAdapter !== undefined;
}

/** Ask the server for a document's diagnostics now (pull or adapter). Undefined when it has no pull path. */
export async function pullNow(
  client: LspClient,
  uri: string,
  token = new CancellationTokenSource(),
): Promise<LspDiagnostic[] | undefined> {
  const ids = [...new Set(client.pullProviders.values())];
  if (ids.length > 0) return (await Promise.all(ids.map((id) => pullOne(client, uri, id, token)))).flat();
  if (client.spec.pullAdapter === 'tsserver') return tsserverPull(client, uri, token);
  return undefined;
}

/** Wait for diagnostics of `doc` (the state `client.sync` returned), at most `timeoutMs`. Never throws. */
export function waitFresh(
  client: LspClient,
  doc: OpenDoc,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<FreshResult> {
  const started = performance.now();
  const quietMs = client.spec.quietMs ?? 100;
  const token = new CancellationTokenSource();
  return new Promise<FreshResult>((resolve) => {
    let settled = false;
    let pulling = false;
    let allowUnversioned = !hasPullPath(client);
    let quiet: NodeJS.Timeout | undefined;
    let answeredAt: number | undefined;
    const cleanups: (() => void)[] = [];
    const finish = (status: FreshStatus, diagnostics: LspDiagnostic[] = [], via?: 'push' | 'pull'): void => {
      if (settled) return;
      settled = true;
      clearTimeout(quiet);
      token.cancel();
      token.dispose();
      for (const c of cleanups) c();
      resolve({ status, diagnostics, ms: performance.now() - started, ...(via ? { via, answeredAt } : {}) });
    };
    const checkPush = (uri: string): void => {
      if (uri !== doc.uri) return;
      const rec = client.pushes.get(doc.uri);
      if (!rec) return;
      const fresh =
        rec.version !== undefined ? rec.version >= doc.version : allowUnversioned && rec.seq > doc.changeSeq;
      if (!fresh) return;
      answeredAt = performance.now();
      clearTimeout(quiet);
      quiet = setTimeout(
        () => finish('fresh', client.pushes.get(doc.uri)?.diagnostics ?? rec.diagnostics, 'push'),
        quietMs,
      );
    };
    const startPull = (): void => {
      if (pulling || settled || !hasPullPath(client)) return;
      pulling = true;
      pullNow(client, doc.uri, token).then(
        (items) => {
          if (!items) return;
          answeredAt = performance.now();
          finish('fresh', items, 'pull');
        },
        () => {
          // The pull path failed (unsupported, error): fall back to pushes, now judged by arrival.
          allowUnversioned = true;
          checkPush(doc.uri);
        },
      );
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    cleanups.push(client.onPush(checkPush));
    cleanups.push(client.onPullRegistration(startPull));
    cleanups.push(client.onExit(() => finish('crashed')));
    if (signal) {
      if (signal.aborted) return finish('aborted');
      const onAbort = (): void => finish('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    checkPush(doc.uri);
    startPull();
  });
}
