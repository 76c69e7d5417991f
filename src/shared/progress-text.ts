/**
 * How a `progress` event (progress-schemas.ts) reads, in words: the operation's name, its phase, and its numbers —
 * "1,204 of 3,000 files", or "12,408 files" when the total is not known yet (never a made-up percentage). One
 * wording for the window's progress bar and the command line's progress line, so both say the same thing.
 */
import {
  PROGRESS_SHOW_AFTER_MS,
  type ProgressEvent,
  type ProgressOperation,
  type ProgressPhase,
} from './progress-schemas';

const OPERATION_NAMES: Record<ProgressOperation, string> = {
  'first-track': 'First snapshot of the project',
  track: 'Snapshotting the project',
  restore: 'Restoring files',
  revert: 'Reverting',
  unrevert: 'Unreverting',
  undo: 'Undoing',
  redo: 'Redoing',
  preview: 'Previewing the revert',
  gc: 'Cleaning up snapshots',
  import: 'Importing a session',
};

const PHASE_NAMES: Record<ProgressPhase, string> = {
  walk: 'reading files',
  plan: 'comparing with the disk',
  prepare: 'checking files',
  write: 'writing files',
  mark: 'finding what is kept',
  prune: 'removing old objects',
  repack: 'repacking',
  upload: 'receiving',
  read: 'reading the export',
  store: 'saving messages',
};

/** The operation's name as a user reads it ("First snapshot of the project"). */
export function progressName(operation: ProgressOperation): string {
  return OPERATION_NAMES[operation];
}

/** The phase as a user reads it ("reading files"), or '' without one. */
export function phaseName(phase: ProgressPhase | undefined): string {
  return phase ? PHASE_NAMES[phase] : '';
}

const NUMBER = new Intl.NumberFormat('en-US');

/** A byte amount in B, KB, MB or GB (powers of 1000, one decimal from KB up). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(1)} ${units[i] ?? 'TB'}`;
}

/**
 * The numbers of a report: "1,204 of 3,000 files · 4.1 of 12.0 MB", "12,408 files · 48.2 MB", or '' when it has
 * none. Bytes are left out while none were read or written (a walk served by the stat cache).
 */
export function progressNumbers(e: Pick<ProgressEvent, 'count' | 'bytes'>): string {
  const parts: string[] = [];
  if (e.count) {
    const { done, total, unit } = e.count;
    parts.push(
      total === undefined
        ? `${NUMBER.format(done)} ${unit}`
        : `${NUMBER.format(done)} of ${NUMBER.format(total)} ${unit}`,
    );
  }
  if (e.bytes && (e.bytes.done > 0 || e.bytes.total !== undefined)) {
    const { done, total } = e.bytes;
    parts.push(total === undefined ? formatBytes(done) : `${formatBytes(done)} of ${formatBytes(total)}`);
  }
  return parts.join(' · ');
}

/**
 * The fraction done (0..1) when the report knows a total (its count's, else its bytes'), else undefined: a bar
 * without a total is drawn as "working", never as a percentage.
 */
export function progressFraction(e: Pick<ProgressEvent, 'count' | 'bytes'>): number | undefined {
  const known = e.count?.total !== undefined ? e.count : e.bytes?.total !== undefined ? e.bytes : undefined;
  if (!known || known.total === undefined) return undefined;
  return known.total === 0 ? 1 : Math.min(1, known.done / known.total);
}

/** One line: "Reverting — writing files: 120 of 400 files (30%)". */
export function progressLine(e: ProgressEvent): string {
  const phase = phaseName(e.phase);
  const numbers = progressNumbers(e);
  const fraction = progressFraction(e);
  const percent = fraction === undefined ? '' : ` (${Math.floor(fraction * 100)}%)`;
  return `${progressName(e.operation)}${phase ? ` — ${phase}` : ''}${numbers ? `: ${numbers}` : ''}${percent}`;
}

/** True when a report says its operation still runs and has run long enough to be shown (PROGRESS_SHOW_AFTER_MS). */
export function progressShown(e: ProgressEvent): boolean {
  return (e.state === 'start' || e.state === 'running') && e.elapsedMs >= PROGRESS_SHOW_AFTER_MS;
}
