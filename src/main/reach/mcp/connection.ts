/**
 * One MCP server, connected with the SDK's Client: stdio (GroupStdioTransport: own process group, scrubbed env
 * plus the entry's env) or HTTP (Streamable HTTP; SSE when the server does not speak it — old servers). It lists
 * the server's tools at start and again on every `notifications/tools/list_changed`.
 *
 * Failure is a state, not an exception: a server that does not start, or does not answer `initialize` and
 * `tools/list` within its start timeout, is `failed` with the reason in words (stderr's tail for stdio); it is
 * reported once (onReport) and the session goes on without it. A server that dies later becomes `failed`
 * ("exited") and is restarted on the next call of one of its tools (at most once per call).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './config';
import { GroupStdioTransport } from './stdio-transport';

export type McpState = 'connecting' | 'connected' | 'failed' | 'disabled';

const DEFAULT_START_S = 20;
const DEFAULT_CALL_S = 60;
/** Longest wait (ms) for a server that went away while starting to close its output (`readToEnd`). */
const STDERR_WAIT_MS = 2_000;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** One server's connection (module docstring). `cwd` is the project folder (stdio servers run there). */
export class McpConnection {
  state: McpState = 'connecting';
  reason: string | undefined;
  tools: Tool[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private reported = false;
  private closing = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly cwd: string,
    private readonly onReport: (text: string) => void,
    private readonly onToolsChanged: () => void = () => undefined,
  ) {
    if (config.entry.enabled === false) this.state = 'disabled';
  }

  private get startMs(): number {
    return (this.config.entry.startTimeout ?? DEFAULT_START_S) * 1000;
  }

  /** Process id of a stdio server (tests, /proc checks); undefined for HTTP or before start. */
  get pid(): number | undefined {
    return this.transport instanceof GroupStdioTransport ? this.transport.proc?.pid : undefined;
  }

  /** Connect and list tools; never throws (state + reason say how it went). */
  async start(): Promise<void> {
    if (this.state === 'disabled') return;
    this.state = 'connecting';
    try {
      await withTimeout(this.connect(), this.startMs, `MCP server ${this.config.name}`);
      this.state = 'connected';
      this.reason = undefined;
      this.reported = false;
    } catch (e) {
      await this.readToEnd(e);
      const why = this.explain(e);
      await this.drop();
      this.fail(why);
    }
  }

  /**
   * A stdio server gone while starting (it exited, or a write to it failed with EPIPE — the same thing seen first
   * from the pipe): waits until its output streams closed, so its stderr is read to the end and the reason names
   * the server's own words, not "write EPIPE" (at most STDERR_WAIT_MS: a child of it may hold stderr open).
   */
  private async readToEnd(e: unknown): Promise<void> {
    const t = this.transport;
    const proc = t instanceof GroupStdioTransport ? t.proc : undefined;
    const code = (e as NodeJS.ErrnoException | undefined)?.code;
    if (!proc || !(proc.hasExited() || code === 'EPIPE' || code === 'ECONNRESET')) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([proc.closed, new Promise<void>((r) => (timer = setTimeout(r, STDERR_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private explain(e: unknown): string {
    const t = this.transport;
    const tail = t instanceof GroupStdioTransport ? t.stderrTail() : '';
    const exited = t instanceof GroupStdioTransport && t.proc?.hasExited();
    const message = exited ? 'the server exited while starting' : e instanceof Error ? e.message : String(e);
    return tail ? `${message} (stderr: ${tail.slice(-300)})` : message;
  }

  private fail(reason: string): void {
    this.state = 'failed';
    this.reason = reason;
    if (this.reported) return;
    this.reported = true;
    this.onReport(`MCP server ${this.config.name} is not available: ${reason}. The session goes on without it.`);
  }

  private async connect(): Promise<void> {
    const client = new Client({ name: 'landfall', version: '1' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.refreshTools().catch(() => undefined);
      this.onToolsChanged();
    });
    const entry = this.config.entry;
    if ('command' in entry) {
      const t = new GroupStdioTransport(entry.command, entry.args, entry.env, this.cwd);
      this.transport = t;
      await client.connect(t);
    } else {
      const url = new URL(entry.url);
      const requestInit = { headers: entry.headers };
      try {
        if (entry.type === 'sse') throw new Error('configured as SSE');
        this.transport = new StreamableHTTPClientTransport(url, { requestInit });
        await client.connect(this.transport);
      } catch {
        this.transport = new SSEClientTransport(url, { requestInit });
        await client.connect(this.transport);
      }
    }
    this.client = client;
    client.onclose = () => {
      if (this.closing || this.client !== client) return;
      this.client = undefined;
      this.state = 'failed';
      this.reason = 'the server exited';
    };
    await this.refreshTools();
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
  }

  /**
   * Call `tool` with `args`. A dead server is restarted first (once). Rejects with an Error whose message is
   * the reason in words (not connected, timed out, transport error); a tool's own error is `isError` data.
   */
  async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    if (this.state === 'failed' && !this.closing) {
      this.reported = true; // a restart on use is said in the tool's answer, not reported again
      await this.start();
    }
    const client = this.client;
    if (this.state !== 'connected' || !client)
      throw new Error(`MCP server ${this.config.name} is ${this.state}${this.reason ? `: ${this.reason}` : ''}`);
    const ms = (this.config.entry.callTimeout ?? DEFAULT_CALL_S) * 1000;
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: ms,
      ...(signal ? { signal } : {}),
    });
    return result as CallToolResult;
  }

  private async drop(): Promise<void> {
    const t = this.transport;
    this.client = undefined;
    this.transport = undefined;
    await t?.close().catch(() => undefined);
  }

  /** Stop the server (its whole process group for stdio). */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
    await this.drop();
  }
}
