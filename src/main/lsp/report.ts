/**
 * Turning language-server answers into what the model reads and what the UI stores.
 *
 * The text lists only ERROR severity, at most 20 per file ("… and N more"), `line:col` 1-based, inside a block
 * that first says the edit itself succeeded. A file whose server timed out, crashed, is broken or is not
 * installed says so in plain words, so "no errors" is never confused with "no answer". Other files (write only)
 * are capped at 5. The metadata keeps every diagnostic (any severity) of the changed files.
 */
import path from 'node:path';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import type { Diagnostic } from '../../shared/model';
import { isInside } from '../fs/workspace';

export const MAX_ERRORS_PER_FILE = 20;
export const MAX_OTHER_FILES = 5;

/** What one server said (or failed to say) about one changed file. */
export interface FileOutcome {
  absPath: string;
  serverId: string;
  status: 'fresh' | 'timeout' | 'crashed' | 'aborted' | 'unavailable' | 'broken' | 'deleted';
  diagnostics: LspDiagnostic[];
  /** ms spent waiting (timeouts name their budget). */
  ms: number;
  /** Why unavailable / broken / crashed, in words. */
  reason?: string;
  /** The server's own time: change sent → the winning answer arrived (ms), and how it came. */
  serverMs?: number;
  via?: 'push' | 'pull';
}

/** Errors found in a file that was not written by this call. */
export interface OtherFile {
  absPath: string;
  serverId: string;
  diagnostics: LspDiagnostic[];
}

/** Root-relative path with '/' separators (absolute when outside the root). */
export function relPath(root: string, absPath: string): string {
  return isInside(root, absPath) ? path.relative(root, absPath).split(path.sep).join('/') : absPath;
}

/** LSP diagnostic → Landfall's (1-based line/col; a missing severity counts as error, as the spec allows). */
export function toDiagnostic(file: string, d: LspDiagnostic): Diagnostic {
  return {
    file,
    line: d.range.start.line + 1,
    col: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endCol: d.range.end.character + 1,
    severity: (d.severity ?? 1) as Diagnostic['severity'],
    message: typeof d.message === 'string' ? d.message : d.message.value,
    ...(d.source ? { source: d.source } : {}),
    ...(d.code !== undefined && (typeof d.code === 'string' || typeof d.code === 'number') ? { code: d.code } : {}),
  };
}

function errorLines(diags: Diagnostic[]): string[] {
  const errors = diags.filter((d) => d.severity === 1).sort((a, b) => a.line - b.line || a.col - b.col);
  const lines = errors.slice(0, MAX_ERRORS_PER_FILE).map((d) => {
    const code = d.code === undefined ? '' : ` [${d.source === 'typescript' ? 'TS' : ''}${d.code}]`;
    return `  ${d.line}:${d.col} ${d.message.replace(/\s*\n\s*/g, ' ')}${code}`;
  });
  if (errors.length > MAX_ERRORS_PER_FILE) lines.push(`  … and ${errors.length - MAX_ERRORS_PER_FILE} more`);
  return lines;
}

function outcomeLines(rel: string, o: FileOutcome, diags: Diagnostic[]): string[] {
  switch (o.status) {
    case 'fresh': {
      const lines = errorLines(diags);
      return lines.length === 0
        ? [`No errors in ${rel} (${o.serverId}).`]
        : [`Errors in ${rel} (${o.serverId}):`, ...lines];
    }
    case 'deleted':
      return [];
    case 'timeout':
      return [
        `${rel}: ${o.serverId} gave no diagnostics within ${Math.round(o.ms)} ms (timed out) — errors may exist that are not listed.`,
      ];
    case 'aborted':
      return [`${rel}: waiting for ${o.serverId} diagnostics was cancelled.`];
    case 'crashed':
      return [
        `${rel}: the ${o.serverId} language server crashed before answering${o.reason ? ` (${o.reason})` : ''}; no diagnostics for this change.`,
      ];
    case 'broken':
      return [
        `${rel}: diagnostics unavailable — the ${o.serverId} language server failed repeatedly and is turned off${o.reason ? ` (${o.reason})` : ''}.`,
      ];
    case 'unavailable':
      return [`${rel}: diagnostics unavailable — ${o.reason ?? `the ${o.serverId} language server is not installed`}.`];
  }
}

/**
 * Build the tool-output block and the metadata. `root` is the project root; `others` are files outside this
 * call that have errors now (already fresh); only the first MAX_OTHER_FILES are listed.
 */
export function buildReport(
  root: string,
  outcomes: FileOutcome[],
  others: OtherFile[],
): { text: string; diagnostics: Record<string, Diagnostic[]> } {
  const diagnostics: Record<string, Diagnostic[]> = {};
  const body: string[] = [];
  for (const o of outcomes) {
    const rel = relPath(root, o.absPath);
    const diags = o.diagnostics.map((d) => toDiagnostic(rel, d));
    diagnostics[rel] = [...(diagnostics[rel] ?? []), ...diags];
    body.push(...outcomeLines(rel, o, diags));
  }
  const withErrors = others.filter((f) => f.diagnostics.some((d) => (d.severity ?? 1) === 1));
  if (withErrors.length > 0) {
    body.push('Other files with errors after this change:');
    for (const f of withErrors.slice(0, MAX_OTHER_FILES)) {
      const rel = relPath(root, f.absPath);
      body.push(`Errors in ${rel} (${f.serverId}):`, ...errorLines(f.diagnostics.map((d) => toDiagnostic(rel, d))));
    }
    if (withErrors.length > MAX_OTHER_FILES)
      body.push(`… and ${withErrors.length - MAX_OTHER_FILES} more files with errors`);
  }
  if (body.length === 0) return { text: '', diagnostics };
  const text = [
    '<diagnostics>',
    'The edit itself succeeded and is on disk; language-server diagnostics for the files as they are now:',
    ...body,
    '</diagnostics>',
  ].join('\n');
  return { text, diagnostics };
}
