/**
 * The stdio transport of an MCP server, spawned the way language servers are (src/main/lsp/process.ts): its own
 * process group (stopping it reaches what it spawned), the scrubbed environment plus only the entry's `env`, the
 * project folder as working directory, stderr kept (its tail explains a failed start). Messages are the SDK's
 * newline-delimited JSON-RPC (ReadBuffer / serializeMessage), with a 64 MB message limit (a tool may answer with
 * a large output; what the model reads is capped later).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnServer, sweepGroup, terminateGroup } from '../../lsp/process';
import type { ServerProcess } from '../../lsp/process';

const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A Transport over a child process in its own group (module docstring). */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  proc: ServerProcess | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });

  constructor(
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
    private readonly cwd: string,
  ) {}

  async start(): Promise<void> {
    const proc = spawnServer({ command: this.command, args: this.args, env: this.env, source: 'path' }, this.cwd);
    this.proc = proc;
    proc.child.once('error', (e) => this.onerror?.(e));
    proc.child.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (e) {
          this.onerror?.(e as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    void proc.exited.then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc?.child.stdin;
    if (!stdin || this.proc?.hasExited()) throw new Error('the server process has exited');
    await new Promise<void>((resolve, reject) =>
      stdin.write(serializeMessage(message), (e) => (e ? reject(e) : resolve())),
    );
  }

  /** Stop the whole group: SIGTERM, then SIGKILL after 2 s, then sweep leftovers until the process table is clean. */
  async close(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    proc.child.stdin.end();
    await terminateGroup(proc, 2_000);
    await sweepGroup(proc.pid, 2_000);
    this.buffer.clear();
  }

  /** Tail of the server's stderr (for the reason of a failed start). */
  stderrTail(): string {
    return this.proc?.stderrTail() ?? '';
  }
}
