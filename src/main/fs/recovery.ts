/**
 * Recovery of journaled writes (journal.ts) left by a process that was killed: run when the service opens
 * (AgentService.open) and when a snapshot store opens, before anything else writes to the project.
 *
 * Per transaction folder whose owner is gone (pid and process start time, so a live writer in another process
 * or window is never disturbed):
 *   - no plan: the kill came before anything was planned — the folder goes;
 *   - a plan of one step: its rename is atomic, so the file is old or new either way — the temp file is removed
 *     ('discarded');
 *   - a plan of several steps, not committed: the project may hold a mix — everything is rolled back
 *     (rollback.ts), so every file is as before the transaction, except files someone changed since, which are
 *     kept and reported ('rolled_back'; 'discarded' when nothing had changed yet); the transaction's caller never
 *     reported success, so back is the state it promised;
 *   - committed: it completed; leftover temp files are removed ('completed'). A transaction with an intent
 *     (tx-types.ts) keeps its folder — plan and mark, backups dropped — for its caller, who writes the record that
 *     follows it and releases it (`journalOutcome`, `releaseJournal`); it is reported once.
 * Every outcome is returned, appended to `<journalDir>/recovered.log` (one JSON object a line) and can be shown
 * by the UI and the command line.
 */
import { appendFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { journalDirOf } from './data-dir';
import { dropBackupsIn, markReported, ownerAlive, readJournal, type Plan } from './journal';
import { PinnedDirs } from './pinned-dir';
import { rollBack, settle, type KeptPath } from './rollback';

/** What a recovery did with one interrupted transaction. Paths are relative to `root`. */
export interface RecoveryReport {
  id: string;
  label: string;
  root: string;
  createdAt: string;
  outcome: 'rolled_back' | 'completed' | 'discarded';
  restored: string[];
  removed: string[];
  kept: KeptPath[];
  tempsRemoved: number;
}

function removeTemps(plan: Plan): number {
  const pins = new PinnedDirs(plan.root);
  let n = 0;
  try {
    for (const s of plan.steps) {
      if (!s.temp) continue;
      try {
        rmSync(pins.at(s.temp));
        n++;
      } catch {
        // never created, renamed into place, or its folder is gone
      }
    }
  } finally {
    pins.close();
  }
  return n;
}

function recoverOne(journalDir: string, txDir: string): RecoveryReport | undefined {
  const found = readJournal(txDir);
  const plan = found.plan;
  if (found.committed && found.reported) return undefined; // kept for its caller, reported before
  if (!plan) {
    rmSync(txDir, { recursive: true, force: true });
    return undefined;
  }
  const base = { id: plan.id, label: plan.label, root: plan.root, createdAt: plan.createdAt };
  if (plan.steps.length > 1 && !found.committed) {
    const outcome = rollBack(plan, txDir);
    settle(journalDir, txDir, outcome);
    const changed = outcome.restored.length + outcome.removed.length + outcome.kept.length > 0;
    return { ...base, outcome: changed ? 'rolled_back' : 'discarded', ...outcome };
  }
  const tempsRemoved = removeTemps(plan);
  if (found.committed && plan.intent !== undefined) {
    dropBackupsIn(txDir);
    markReported(txDir);
  } else rmSync(txDir, { recursive: true, force: true });
  return {
    ...base,
    outcome: found.committed ? 'completed' : 'discarded',
    restored: [],
    removed: [],
    kept: [],
    tempsRemoved,
  };
}

/**
 * Recover every interrupted transaction under `journalDir` (optionally only those of project `root`, a real
 * path). Returns what was done, oldest first. Never throws: a folder that cannot be read is left for next time.
 */
export function recoverJournals(journalDir: string, options: { root?: string } = {}): RecoveryReport[] {
  let names: string[];
  try {
    names = readdirSync(journalDir)
      .filter((n) => n !== 'kept' && n !== 'recovered.log')
      .sort();
  } catch {
    return [];
  }
  const reports: RecoveryReport[] = [];
  for (const name of names) {
    const txDir = path.join(journalDir, name);
    try {
      const plan = readJournal(txDir).plan;
      if (plan && (ownerAlive(plan) || (options.root !== undefined && plan.root !== options.root))) continue;
      const r = recoverOne(journalDir, txDir);
      if (r) reports.push(r);
    } catch {
      // unreadable now (permissions, a disk error): left for the next start
    }
  }
  if (reports.length > 0) {
    try {
      appendFileSync(path.join(journalDir, 'recovered.log'), reports.map((r) => `${JSON.stringify(r)}\n`).join(''));
    } catch {
      // the reports are still returned to the caller
    }
  }
  return reports;
}

/**
 * Recovery as a service opening runs it: the data folder's journals (`<dataDir>/journal`, where the app, the web
 * host and the one-shot tool commands all journal their writes). Each report is also written to stderr as one line.
 */
export function recoverWrites(dataDir: string): RecoveryReport[] {
  const reports = recoverJournals(journalDirOf(dataDir));
  for (const r of reports) process.stderr.write(`landfall: ${describeRecovery(r)}\n`);
  return reports;
}

/** One line per report, for a log or the command line ("restore of 12 files interrupted: rolled back, …"). */
export function describeRecovery(r: RecoveryReport): string {
  const what =
    r.outcome === 'rolled_back'
      ? `rolled back (${r.restored.length} restored, ${r.removed.length} removed${r.kept.length ? `, ${r.kept.length} kept because they changed since: ${r.kept.map((k) => k.rel).join(', ')}` : ''})`
      : r.outcome === 'completed'
        ? 'had completed'
        : 'had not started changing files';
  return `${r.label} in ${r.root} (started ${r.createdAt}) was interrupted and ${what}; ${r.tempsRemoved} temp file(s) removed.`;
}
