/**
 * A real temp workspace for the tool tests: a folder under os.tmpdir(), a ToolContext over it with a fresh
 * ObservedVersions store, and byte-level helpers. Used only by *.test.ts files.
 */
import { mkdirSync, mkdtempSync, promises as fsp, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ObservedVersions } from '../fs/observed';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';

export interface Workspace {
  /** The temp folder holding `root` (so tests can place things OUTSIDE the workspace). */
  outer: string;
  root: string;
  ctx: ToolContext;
  put(rel: string, bytes: string | Buffer): Promise<void>;
  bytes(rel: string): Promise<Buffer>;
  /** File bytes as a latin1 string, so expectations read like the bug README's printf escapes. */
  raw(rel: string): Promise<string>;
  run<I>(tool: ToolDefinition<I>, input: I, ctx?: Partial<ToolContext>): Promise<ToolOutcome>;
  cleanup(): Promise<void>;
}

/** Create a workspace; remember to `await ws.cleanup()`. */
export function makeWorkspace(): Workspace {
  const outer = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-tools-')));
  const root = path.join(outer, 'ws');
  mkdirSync(root);
  const ctx: ToolContext = {
    root,
    sessionId: 's1',
    observed: new ObservedVersions(),
    scratchDir: path.join(outer, 'scratch'),
    journalDir: path.join(outer, 'journal'),
  };
  return {
    outer,
    root,
    ctx,
    async put(rel, bytes) {
      await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await fsp.writeFile(path.join(root, rel), typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
    },
    bytes: (rel) => fsp.readFile(path.join(root, rel)),
    async raw(rel) {
      return (await fsp.readFile(path.join(root, rel))).toString('latin1');
    },
    async run(tool, input, extra) {
      const parsed = tool.input.parse(input);
      return tool.execute(parsed, { ...ctx, ...extra });
    },
    cleanup: () => fsp.rm(outer, { recursive: true, force: true }),
  };
}

/** 'ok' for a success, else the error code — the one word most tool tests compare. */
export function codeOf(o: ToolOutcome): string {
  return o.ok ? 'ok' : o.error.code;
}
