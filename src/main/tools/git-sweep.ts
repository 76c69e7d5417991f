/**
 * The after-the-fact guard of a repository's git configuration and hooks around a bash command (issue 12: under
 * an allow-all rule a line that COMPUTES a path — `d=.git/hoo; echo x > ${d}ks/pre-commit`, a Python string — is
 * never seen by the gate, which judges the words a line names, yet git runs the planted hook or `core.fsmonitor`
 * on the user's next command). Before a command that had no `git_dir` question runs, the state of the places git
 * takes programs from is taken (`takeGuardState`); after it, every change there is put back byte for byte
 * (`restoreGuardState`) and the command's output says what was undone and how to ask for it properly.
 *
 * Places (`gitGuardPlaces`): every file of git's configuration chain (the repository's `config` and
 * `config.worktree`, the global and system configs, every included file), the hooks folder, the folders
 * `core.hooksPath` names anywhere in the chain, and what symlinks there lead to (tools/git-dir.ts `gitSources`). Files are kept whole up to MAX_KEPT_BYTES each,
 * folders one level deep up to MAX_ENTRIES entries; what is bigger or deeper is compared by size and hash and
 * reported, not restored; a file the command added in a watched folder is removed, however many it added. A
 * restore is atomic (temp, fsync, rename; a symlink is re-created beside and renamed over); a watched folder
 * swapped for a symlink or a file gets its folder back (the link is removed, never what it leads to); a folder
 * the command added is removed when the sweep emptied it, else reported.
 */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { syncDir, TEMP_MARKER, writeFileAtomic } from '../fs/atomic-write';
import { gitSources } from './git-dir';

/** Bytes of one watched file kept to restore it (bigger: compared by hash, reported). */
export const MAX_KEPT_BYTES = 1024 * 1024;
/** Entries of one watched folder kept to restore (names past it are still seen: new ones are removed). */
export const MAX_ENTRIES = 256;

/** What one watched path was. */
type Entry =
  | { kind: 'absent' }
  | { kind: 'file'; mode: number; hash: string; bytes?: Buffer }
  | { kind: 'link'; target: string }
  | { kind: 'dir' }
  | { kind: 'other' };

/** The watched places and what each path in them was, before the command. */
export interface GuardState {
  /** Absolute path → what it was. */
  entries: Map<string, Entry>;
  /** Watched folders (absolute) and the entry names they had. */
  folders: Map<string, Set<string> | undefined>;
}

/** What `restoreGuardState` did. */
export interface GuardSweep {
  /** Paths put back as they were (absolute). */
  restored: string[];
  /** Paths changed that could not be put back (too big, a folder, an error), each with why. */
  unrestored: string[];
}

/** Absolute paths to watch: files and folders (see the module docstring). */
export interface GuardPlaces {
  files: string[];
  folders: string[];
}

async function entryOf(abs: string): Promise<Entry> {
  let st;
  try {
    st = await fsp.lstat(abs);
  } catch {
    return { kind: 'absent' };
  }
  if (st.isSymbolicLink()) return { kind: 'link', target: await fsp.readlink(abs) };
  if (st.isDirectory()) return { kind: 'dir' };
  if (!st.isFile()) return { kind: 'other' };
  const bytes = await fsp.readFile(abs).catch(() => undefined);
  if (!bytes) return { kind: 'other' };
  const hash = createHash('sha256').update(bytes).digest('hex');
  return { kind: 'file', mode: st.mode & 0o7777, hash, ...(bytes.length <= MAX_KEPT_BYTES ? { bytes } : {}) };
}

function same(a: Entry, b: Entry): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.hash === b.hash && a.mode === b.mode;
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return true;
}

/** Every entry name of `folder` (following a symlink to it: a hooks folder may be one), or undefined. */
async function namesIn(folder: string): Promise<string[] | undefined> {
  try {
    const st = await fsp.stat(folder);
    if (!st.isDirectory()) return undefined;
    return (await fsp.readdir(folder)).sort();
  } catch {
    return undefined;
  }
}

/**
 * The state of `places` now: each file's bytes (up to MAX_KEPT_BYTES), mode and hash, each link's target, each
 * watched folder's entries (one level). Never throws: an unreadable path is recorded as `other`.
 */
export async function takeGuardState(places: GuardPlaces): Promise<GuardState> {
  const entries = new Map<string, Entry>();
  const folders = new Map<string, Set<string> | undefined>();
  for (const f of new Set(places.files)) entries.set(f, await entryOf(f));
  for (const d of new Set(places.folders)) {
    entries.set(d, await entryOf(d));
    const names = await namesIn(d);
    folders.set(d, names ? new Set(names) : undefined);
    for (const n of (names ?? []).slice(0, MAX_ENTRIES)) entries.set(path.join(d, n), await entryOf(path.join(d, n)));
  }
  return { entries, folders };
}

async function putBack(abs: string, was: Entry, now: Entry): Promise<string | undefined> {
  if (was.kind === 'file') {
    if (!was.bytes) return 'it is larger than Landfall keeps to restore';
    if (now.kind === 'dir') return 'a folder now stands in its place';
    await writeFileAtomic(abs, was.bytes, { mode: was.mode });
    await fsp.chmod(abs, was.mode);
    return undefined;
  }
  if (was.kind === 'link') {
    if (now.kind === 'dir') return 'a folder now stands in its place';
    const temp = path.join(path.dirname(abs), `${TEMP_MARKER}${process.pid}-${Date.now()}-link`);
    await fsp.symlink(was.target, temp);
    await fsp.rename(temp, abs);
    await syncDir(path.dirname(abs));
    return undefined;
  }
  if (was.kind === 'absent') {
    if (now.kind === 'dir') {
      // its new files were removed first (restoreGuardState); a folder left empty goes too
      const gone = await fsp.rmdir(abs).then(
        () => true,
        () => false,
      );
      return gone ? undefined : 'the command made a folder here, with more in it than Landfall watches';
    }
    await fsp.rm(abs, { force: true });
    await syncDir(path.dirname(abs));
    return undefined;
  }
  if (was.kind === 'dir' && (now.kind === 'link' || now.kind === 'file' || now.kind === 'absent')) {
    // a folder swapped for a link or a file (or removed): the link or file goes — never what a link leads to —
    // and the folder comes back; its saved entries follow (restoreGuardState checks them after the folder)
    if (now.kind !== 'absent') await fsp.unlink(abs);
    await fsp.mkdir(abs);
    await syncDir(path.dirname(abs));
    return undefined;
  }
  return `it was a ${was.kind === 'dir' ? 'folder' : 'special file'} before`;
}

/**
 * Put every watched path that changed since `before` back as it was (module docstring), including files added
 * to a watched folder (removed). Returns what was restored and what could not be, with why. Never throws.
 */
export async function restoreGuardState(before: GuardState): Promise<GuardSweep> {
  const restored: string[] = [];
  const unrestored: string[] = [];
  const check = async (abs: string, was: Entry): Promise<void> => {
    const now = await entryOf(abs);
    if (same(was, now)) return;
    try {
      const why = await putBack(abs, was, now);
      if (why) unrestored.push(`${abs} (${why})`);
      else restored.push(abs);
    } catch (e) {
      unrestored.push(`${abs} (${(e as Error).message})`);
    }
  };
  for (const [folder, names] of before.folders) {
    // new names are removed only from the folder that was there (or one the command made): a folder swapped for
    // a symlink or a file is put back (below), never emptied — the link may lead to a folder of the user's
    const was = before.entries.get(folder);
    const nowKind = await entryOf(folder);
    const made = was?.kind === 'absent' && nowKind.kind === 'dir'; // the command's own new folder: emptied
    if (!was || (!made && !same(was, nowKind))) continue;
    const now = await namesIn(folder);
    for (const n of now ?? []) {
      const abs = path.join(folder, n);
      if (!names?.has(n) && !before.entries.has(abs)) await check(abs, { kind: 'absent' });
    }
  }
  for (const [abs, was] of before.entries) await check(abs, was);
  return { restored, unrestored };
}

/**
 * The places to watch around a bash command run in `root` (absolute): every place git takes code from for the
 * repository that holds `root` (tools/git-dir.ts `gitSources`: the global and system configs and every file the
 * chain includes, the hooks folder, every `core.hooksPath` folder, what symlinks there lead to — inside the
 * project or not, since bash can write anywhere the user can), except the git folders themselves (objects and
 * refs change with every commit): their `config` and `config.worktree` are in the chain.
 */
export async function gitGuardPlaces(root: string): Promise<GuardPlaces> {
  const files: string[] = [];
  const folders: string[] = [];
  for (const s of await gitSources(root)) {
    if (s.kind === 'git') continue;
    (s.folder ? folders : files).push(s.abs);
  }
  return { files, folders };
}

/**
 * Tool calls the user allowed to change git's configuration or hooks (a `git_dir` question answered yes) that
 * have not finished: while one runs, a sweep around another command cannot tell its changes from theirs and
 * leaves everything as it is (it says so). `epoch` counts every start and end, so a call that came and went
 * during a command is seen too.
 */
const permitted = { running: 0, epoch: 0 };

/**
 * Mark a tool call allowed to write git's configuration or hooks as running; returns the function that marks it
 * finished (idempotent). The tool runner (agent/tool-runner.ts) takes it when a `git_dir` question is answered
 * yes and gives it back when the call's execution settles.
 */
export function holdGitPermission(): () => void {
  permitted.running++;
  permitted.epoch++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    permitted.running--;
    permitted.epoch++;
  };
}

/** A sweep around one command: `end()` restores (or says why it left things alone). */
export interface GitWatch {
  end(): Promise<GuardSweep & { skipped?: string }>;
}

/**
 * Start watching git's configuration and hooks for `root` (module docstring) before a command runs; `end()` after
 * it puts back whatever changed — unless a call the user allowed to change them ran meanwhile (then `skipped`
 * says so and nothing is touched).
 */
export async function watchGitPlaces(root: string): Promise<GitWatch> {
  const epoch = permitted.epoch;
  const before = await takeGuardState(await gitGuardPlaces(root));
  return {
    async end() {
      if (permitted.running > 0 || permitted.epoch !== epoch)
        return {
          restored: [],
          unrestored: [],
          skipped: 'a call the user allowed to change git configuration or hooks ran at the same time',
        };
      return restoreGuardState(before);
    },
  };
}
