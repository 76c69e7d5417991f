/**
 * The command line's progress line (issue 18 §2): long operations — the first track of a project and other full
 * walks, restore, the history moves, gc, import — shown on ONE line of the terminal, rewritten in place (`\r` and
 * erase-line) as their `progress` events arrive (already throttled by main), and erased when the operation ends or
 * fails, or before anything else is printed (the next report draws it again). Same wording as the window's bar
 * (src/shared/progress-text.ts) and the same rule for short operations: nothing is drawn before an operation has
 * run PROGRESS_SHOW_AFTER_MS, so a quick command prints no progress at all.
 *
 * Only on a terminal: when the stream is not a TTY (a pipe, a file, a CI log) — and for `--json` output, which a
 * caller never attaches — not one byte is written. The line is cut to the terminal's width so it never wraps
 * (a wrapped line cannot be rewritten with `\r`).
 */
import type { ProgressEvent } from '../../../shared/progress-schemas';
import { progressLine, progressShown } from '../../../shared/progress-text';

/** Erase the line the cursor is on and return to its start (ANSI "erase in line", whole line). */
export const ERASE_LINE = '\r\x1b[2K';

/** What the line writes to: process.stderr, or a test's stand-in. */
export interface LineStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): boolean;
}

/** The progress line of one command (see the module docstring). */
export class ProgressLine {
  /** The operation whose report is on the line now, if any. */
  private showing: string | undefined;
  /** True when the stream is a terminal: otherwise every method is a no-op. */
  readonly enabled: boolean;

  constructor(private readonly stream: LineStream) {
    this.enabled = stream.isTTY === true;
  }

  /**
   * One `progress` event: drawn (replacing what was on the line) while its operation runs and has run long
   * enough; the line is erased when the operation it shows ends or fails.
   */
  report(e: ProgressEvent): void {
    if (!this.enabled) return;
    if (e.state === 'end' || e.state === 'failed') {
      if (this.showing === e.id) this.clear();
      return;
    }
    if (!progressShown(e)) return;
    this.showing = e.id;
    this.stream.write(`${ERASE_LINE}${this.fit(progressLine(e))}`);
  }

  /** Erases the line if something is on it (before other output, and when the command ends). */
  clear(): void {
    if (!this.enabled || this.showing === undefined) return;
    this.showing = undefined;
    this.stream.write(ERASE_LINE);
  }

  /** `text` cut to the terminal's width less one column (so the cursor never wraps), with an ellipsis. */
  private fit(text: string): string {
    const width = Math.max(20, (this.stream.columns ?? 80) - 1);
    return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  }
}
