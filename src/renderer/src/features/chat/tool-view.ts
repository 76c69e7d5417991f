/**
 * What a tool card shows, read out of a tool part: title, rung, +/− counts, commit diffs, diagnostics. Tools put
 * their detail in `metadata` (src/main/tools/types.ts: commit diff as FileChange, rung, diagnostics keyed by
 * file); this reader accepts a single change or a list, so every file-changing tool renders the same way.
 */
import type { Part } from '../../../../shared/contract';

export interface FileChangeView {
  file: string;
  patch?: string;
  additions: number;
  deletions: number;
}

export interface DiagnosticView {
  file: string;
  line: number;
  col: number;
  severity: number;
  message: string;
}

export interface ToolView {
  title: string;
  rung?: string;
  additions: number;
  deletions: number;
  changes: FileChangeView[];
  diagnostics: DiagnosticView[];
}

type ToolPart = Extract<Part, { type: 'tool' }>;

function isChange(v: unknown): v is FileChangeView {
  const o = v as Partial<FileChangeView> | null;
  return !!o && typeof o.file === 'string' && typeof o.additions === 'number' && typeof o.deletions === 'number';
}

function changesOf(meta: Record<string, unknown>): FileChangeView[] {
  for (const key of ['changes', 'diffs', 'files', 'diff']) {
    const v = meta[key];
    if (Array.isArray(v) && v.every(isChange)) return v;
    if (isChange(v)) return [v];
  }
  return [];
}

function diagnosticsOf(meta: Record<string, unknown>): DiagnosticView[] {
  let v = meta['diagnostics'];
  if (v && typeof v === 'object' && !Array.isArray(v) && 'diagnostics' in v)
    v = (v as { diagnostics: unknown }).diagnostics;
  const list: unknown[] = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v).flat() : [];
  return list.filter(
    (d): d is DiagnosticView =>
      !!d && typeof (d as DiagnosticView).message === 'string' && typeof (d as DiagnosticView).line === 'number',
  );
}

function titleOf(part: ToolPart): string {
  const meta = part.metadata ?? {};
  if (typeof meta['title'] === 'string') return meta['title'];
  const input = (part.input ?? {}) as Record<string, unknown>;
  const target = input['path'] ?? input['filePath'] ?? input['command'] ?? input['pattern'];
  return typeof target === 'string' ? `${part.tool} ${target}` : part.tool;
}

/** Reads a tool part into what its card shows. Pure. */
export function toolView(part: ToolPart): ToolView {
  const meta = part.metadata ?? {};
  const changes = changesOf(meta);
  const additions =
    changes.reduce((n, c) => n + c.additions, 0) || (typeof meta['additions'] === 'number' ? meta['additions'] : 0);
  const deletions =
    changes.reduce((n, c) => n + c.deletions, 0) || (typeof meta['deletions'] === 'number' ? meta['deletions'] : 0);
  const rung = typeof meta['rung'] === 'string' ? meta['rung'] : undefined;
  return {
    title: titleOf(part),
    ...(rung ? { rung } : {}),
    additions,
    deletions,
    changes,
    diagnostics: diagnosticsOf(meta),
  };
}
