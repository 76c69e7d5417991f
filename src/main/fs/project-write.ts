/**
 * The work-tree transaction (transaction.ts) as the tools and review call it: a Result instead of a report, and
 * one wording for its failures. A folder on the path that became a symbolic link (or a root that moved) while the
 * call ran is `outside_root` — it is the boundary that held; any other fs failure is `io_error`. With `atomic`,
 * a failure means nothing changed, unless `notRestored` (in the error's data) names files the rollback could not
 * put back.
 */
import { fail, ok, type Result } from '../../shared/errors';
import { defaultJournalDir } from './journal';
import { runTransactionAsync, type TxHook, type TxReport, type TxStep } from './transaction';

/** Options of `writeProject`: where the journal goes (the data folder; a temp folder when omitted) and who writes. */
export interface ProjectWriteOptions {
  journalDir?: string;
  label: string;
  /** Fault injection for tests (transaction.ts TxHook). */
  hook?: TxHook;
  /** The caller's record that follows the commit (tx-types.ts `TxOptions.intent`). */
  intent?: string;
}

/** The failure for a transaction report with failed steps (see the module docstring). */
export function transactionFailure(report: TxReport): Result<never> {
  const first = report.failed[0] as TxReport['failed'][number];
  const boundary = first.code === 'ELINK' || first.code === 'EMOVED';
  const outcome =
    report.notRestored.length === 0
      ? 'nothing was changed'
      : `these files could NOT be restored and differ from before: ${report.notRestored.join(', ')}`;
  const data = { path: first.rel, failed: first.rel, errno: first.code, notRestored: report.notRestored };
  if (boundary)
    return fail(
      'outside_root',
      `Writing ${first.rel} was refused: ${first.message} (a folder on its path was replaced while the call ran); ${outcome}.`,
      `Check what changed on ${first.rel}'s path, then repeat the change with a path inside the project.`,
      data,
    );
  return fail(
    'io_error',
    `Writing ${first.rel} failed (${first.code}: ${first.message}); ${outcome}.`,
    report.notRestored.length === 0
      ? 'Fix the cause (permissions, disk space, a file where a folder is needed) and try again.'
      : `Check ${report.notRestored.join(', ')} by hand before retrying.`,
    data,
  );
}

/**
 * Write `steps` under the real project `root` all or nothing, every temp file fsync'd. Errors: `outside_root`,
 * `io_error` (see the module docstring); an unwritable journal folder is `io_error` with nothing changed.
 */
export async function writeProject(
  root: string,
  steps: readonly TxStep[],
  options: ProjectWriteOptions,
): Promise<Result<TxReport>> {
  let report: TxReport;
  try {
    report = await runTransactionAsync(steps, {
      root,
      journalDir: options.journalDir ?? defaultJournalDir(),
      label: options.label,
      atomic: true,
      sync: 'all',
      ...(options.hook ? { hook: options.hook } : {}),
      ...(options.intent !== undefined ? { intent: options.intent } : {}),
    });
  } catch (e) {
    return fail(
      'io_error',
      `The write journal could not be written (${(e as Error).message}); nothing was changed.`,
      "Check that the app's data folder is writable.",
      { errno: (e as NodeJS.ErrnoException).code },
    );
  }
  return report.failed.length > 0 ? transactionFailure(report) : ok(report);
}
