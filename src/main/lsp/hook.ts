/**
 * The language-server side of a tool call, as the tools see it: the hook a tool context carries
 * (`ToolContext.diagnostics`) and the report it answers after a write. LspManager (manager.ts) implements it per
 * session; the tools call it without knowing which servers run (DESIGN §7). Absent from a context means "no
 * diagnostics".
 */
import type { Diagnostic } from '../../shared/model';

/** Outcome of asking the language servers about files after a write. */
export interface DiagnosticsReport {
  /** Text appended to the tool output (errors only; says when a server timed out or is unavailable). */
  text: string;
  /** All diagnostics (any severity) of the changed files, keyed by root-relative path, for the UI. */
  diagnostics: Record<string, Diagnostic[]>;
}

/** What a tool calls: `touch` after a read (warm the file's servers up), `afterWrite` after a write. */
export interface DiagnosticsHook {
  /** A file was read: warm its server up. Never waits. */
  touch(absPath: string): void;
  /** Files were written (absolute paths): sync them and wait for fresh diagnostics. */
  afterWrite(absPaths: string[], options: AfterWriteOptions): Promise<DiagnosticsReport>;
}

/**
 * Options of DiagnosticsHook.afterWrite. `onWaiting` is called once the files are synced, with the ids of the
 * servers now being waited for ("typescript"); `onLate` once per server whose diagnostics came after the wait
 * timed out (at most a minute later), with a report of just those files — the call itself never waits for them.
 */
export interface AfterWriteOptions {
  reportOtherFiles: boolean;
  signal?: AbortSignal;
  onWaiting?: (servers: string[]) => void;
  onLate?: (report: DiagnosticsReport) => void;
}
