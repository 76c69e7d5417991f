/**
 * The shapes of a work-tree transaction (transaction.ts): what each step puts where, the options, and the report.
 * Their own file so the transaction and its file operations (tx-ops.ts) both use them without importing each
 * other.
 */

/**
 * What a step puts at its target. `perm`: exact permission bits; `exec`: keep the old bits, with or without x.
 * `bytes` may be a reader (then `oid`, git's blob id of the bytes, is required): it is called with that `oid` when
 * the temp file is written, so a restore of 20,000 files never holds them all in memory — and one reader can serve
 * every step (a closure per step was ~370 bytes of heap each on a 100,000-file restore). `skipSame`: a target that already
 * holds exactly this (bytes and exec bit, or link text) is left alone and listed as unchanged.
 */
export type Put =
  | {
      kind: 'file';
      bytes: Uint8Array | ((oid: string) => Uint8Array);
      perm?: number;
      exec?: boolean;
      oid?: string;
      skipSame?: boolean;
    }
  | { kind: 'link'; target: string; skipSame?: boolean }
  | { kind: 'delete' };

/** One change: `rel` is root-relative, '/'-separated, without '', '.' or '..' components. */
export interface TxStep {
  rel: string;
  put: Put;
}

/**
 * Told once per step done in a phase: `prepare` (its target checked and, when replaced, backed up into the
 * journal), then `write` (its file written or removed). `total`: the steps of that phase; `bytes`: what this step
 * wrote (0 for a removal, a link, or a step found already as wanted). For progress reports; must not throw.
 */
export type TxProgress = (phase: 'prepare' | 'write', total: number, bytes: number) => void;

/** Test hook: called before each operation on the project; throwing simulates a failure there. */
export type TxHook = (op: 'stage' | 'rename' | 'remove', rel: string) => void;

export interface TxOptions {
  /** The real project root. */
  root: string;
  /** The journal folder (in the app's data folder; journal.ts `defaultJournalDir` otherwise). */
  journalDir: string;
  /** What runs the transaction, for the recovery report ('apply_patch', 'revert', 'restore', …). */
  label: string;
  atomic: boolean;
  sync: 'all' | 'replaced';
  /** Remove folders that removals left empty (restore); never the root. */
  prune?: boolean;
  /** A write may replace an empty folder at its target (restore: a folder became a file). */
  replaceEmptyDirs?: boolean;
  hook?: TxHook;
  /**
   * The id of a record its caller writes once the transaction committed (a session's revert boundary, a review
   * decision): the journal folder is named by it and, once committed, kept (plan and `committed` mark; backups
   * dropped) until the caller has written its record and calls `releaseJournal` (journal.ts). So after a kill the
   * caller can tell a transaction that committed (`journalOutcome` 'committed': its record must follow) from one
   * that was rolled back or never began ('none'). With an intent even one step, or none, is fully journaled.
   * Letters, digits and '-' only.
   */
  intent?: string;
  /** Progress of the steps (restore and revert report it); only runTransactionAsync tells it. */
  progress?: TxProgress;
}

/** A step that failed: its path, the fs error code (or PinError code), the message, and the folder at fault. */
export interface TxFailure {
  rel: string;
  code: string;
  message: string;
  /** For a PinError: the folder on the way that is a link, a file, or missing. */
  at?: string;
}

/** What a transaction did. With `atomic`, `failed` non-empty means everything was put back (except `notRestored`). */
export interface TxReport {
  written: string[];
  removed: string[];
  /** Steps with `skipSame` whose target already held what they would write. */
  unchanged: string[];
  failed: TxFailure[];
  /** Atomic mode, after a failure: files the rollback could not put back (they differ from before). */
  notRestored: string[];
}
