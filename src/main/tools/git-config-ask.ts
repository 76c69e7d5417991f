/**
 * Asking git itself which files it reads its configuration from (`git config --list --show-origin -z`), with the
 * answer kept while nothing it depends on has changed.
 *
 * git-dir.ts reads the configuration chain itself (git-config-chain.ts) on every call and asks git on top, for
 * what its own reading can miss (a system config where this git was built to look, a parser difference). Asking
 * spawns a process — tens of milliseconds of the app's main thread, on every write and every bash line — so the
 * answer is kept per (top folder, home, environment) and reused only while every file it depends on — the ones
 * git reported, the ones read here, every include git listed (whatever its condition) and the global file — has
 * the same lstat and stat data (inode, size, mtime and ctime in nanoseconds) as when git was asked. A file changed within RACY_MS before the ask is "racy" (git's own rule for its index: file times
 * tick in coarse steps, so a change in the same tick keeps them): such an answer is not kept, and the next call
 * asks again.
 */
import { execFile } from 'node:child_process';
import { lstatSync, statSync, type BigIntStats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../proc/child-env';
import { expandHome, isIncludeKey, joinRaw } from './git-config-chain';

/** What git reported: the files it read (absolute, in its order) and the `core.hooksPath` values (`~` expanded). */
export interface GitConfigAnswer {
  files: string[];
  hooksPaths: string[];
}

/**
 * Variables that would point git at another repository than the one asked about (`-C top` names it), make
 * `git config` read one other file only (`GIT_CONFIG`), or add `-c` settings (git-dir.ts reads those from the
 * environment itself: the scrubbed environment keeps GIT_CONFIG_COUNT but drops its `*_KEY_*` names, and git
 * refuses that half).
 */
const SKIPPED_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_NAMESPACE',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
];

/** How close (ms) to the ask a file's change makes the answer racy (not kept). */
export const RACY_MS = 2_000;
/** Answers kept at most (one per top folder, home and environment; the oldest goes first). */
const MAX_KEPT = 64;

interface Kept {
  answer: GitConfigAnswer;
  /** lstat and stat signature (stampOf) of every file the answer depends on, by path. */
  stamps: Map<string, string>;
}

const kept = new Map<string, Kept>();
let asks = 0;

/** How many times git was actually asked since the process started (tests: a reused answer does not ask). */
export function gitConfigAsks(): number {
  return asks;
}

/** Forgets every kept answer (tests). */
export function forgetGitConfigAnswers(): void {
  kept.clear();
}

/**
 * `inode:size:mtime:ctime` (nanoseconds) of `abs` itself (lstat) and of what it leads to (stat: a config file may
 * be a symlink), 'missing' for either that is not there; `racy` when either changed within RACY_MS of `since`
 * (ms since the epoch) or later.
 */
function stampOf(abs: string, since: number): { stamp: string; racy: boolean } {
  let racy = false;
  const one = (st: BigIntStats | undefined): string => {
    if (!st) return 'missing';
    const changedMs = Number((st.ctimeNs > st.mtimeNs ? st.ctimeNs : st.mtimeNs) / 1_000_000n);
    racy ||= changedMs >= since - RACY_MS;
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  };
  const stamp = `${one(quiet(() => lstatSync(abs, { bigint: true })))}|${one(quiet(() => statSync(abs, { bigint: true })))}`;
  return { stamp, racy };
}

/** A stat call's answer, undefined when it fails (missing, a symlink loop, no access). */
function quiet(call: () => BigIntStats): BigIntStats | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}

/**
 * git's own answer for the repository at (or the folder) `top` (absolute), `~` expanded from `home`: the files it
 * reads its configuration from and the `core.hooksPath` values, with the scrubbed environment (proc/child-env.ts,
 * which still carries HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL / _SYSTEM / _NOSYSTEM). `chain` lists the files
 * git-dir.ts found by reading the chain itself, missing ones included: a kept answer is reused only while every
 * one of them, every file git reported, every file git listed an include of (whatever its condition; resolved as
 * git does, `~user` from the user database) and the global file (a relative GIT_CONFIG_GLOBAL from `top`) is as
 * it was (module docstring) — so a file the caller's own reading misses but git would read once it exists is
 * watched too. An include that cannot be resolved here (another user's home, `%(prefix)/`) keeps nothing. `git config` only reads: no hook, pager or alias runs for it,
 * stdout is a pipe. Undefined when git cannot answer (not installed, a repository git refuses to read, a 10 s
 * timeout, more than 4 MiB of configuration): the caller then relies on its own reading. Never rejects. `now`
 * (ms since the epoch) is the clock the racy rule reads (tests pass a later one).
 */
export async function askGitConfig(
  top: string,
  home: string,
  chain: string[],
  now: number = Date.now(),
): Promise<GitConfigAnswer | undefined> {
  const env = childEnv({ GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' });
  for (const name of Object.keys(env))
    if (SKIPPED_VARIABLES.includes(name) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  const key = JSON.stringify([top, home, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  const known = kept.get(key);
  if (
    known &&
    [...new Set([...chain, ...known.stamps.keys()])].every((f) => known.stamps.get(f) === stampOf(f, now).stamp)
  )
    return known.answer;
  kept.delete(key);
  // Stamped before asking: a change while git reads is then either seen as racy or differs next time.
  const stamps = new Map<string, string>();
  let racy = false;
  const stamp = (f: string): void => {
    if (stamps.has(f)) return;
    const s = stampOf(f, now);
    stamps.set(f, s.stamp);
    racy ||= s.racy;
  };
  chain.forEach(stamp);
  asks++;
  const listed = await listConfig(top, home, env);
  if (!listed) return undefined;
  const { answer, includes } = listed;
  answer.files.forEach(stamp);
  // What git would read once it exists: every include it listed, whatever its condition (one that cannot be
  // resolved here is not watched: then the answer is not kept), and the global file, a relative one from `top`.
  includes?.forEach(stamp);
  const global = env['GIT_CONFIG_GLOBAL'];
  if (global) stamp(joinRaw(top, expandHome(global, home)));
  if (!racy && includes) {
    kept.set(key, { answer, stamps });
    if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  }
  return answer;
}

/**
 * The file an include value `value` of a config entry from `origin` (git's `--show-origin` text) names, resolved
 * as git resolves it: `~` and `~/…` from `home`, `~user/…` from the current user's home in the user database
 * (git asks getpwnam, not HOME), a relative path from the including file's folder. Undefined when it cannot be
 * resolved here: another user's `~user`, a `%(prefix)/` path, a relative path from a non-file origin.
 */
function includeTarget(origin: string, value: string, top: string, home: string): string | undefined {
  if (value.startsWith('%(')) return undefined;
  const m = /^~([^/]*)(?=\/|$)/.exec(value);
  let abs = value;
  if (m) {
    const user = m[1] ?? '';
    const me = user === '' ? undefined : currentUser();
    const own = user === '' ? home : me?.username === user ? me.homedir : undefined;
    if (!own) return undefined;
    abs = own + value.slice(m[0].length);
  }
  if (path.isAbsolute(abs)) return abs;
  if (!origin.startsWith('file:')) return undefined;
  return joinRaw(path.dirname(joinRaw(top, origin.slice(5))), abs);
}

/** The current user's name and home from the user database, undefined when it cannot be read. */
function currentUser(): { username: string; homedir: string } | undefined {
  try {
    return os.userInfo();
  } catch {
    return undefined;
  }
}

/**
 * Runs `git -C top config --list --show-origin -z` with `env` and parses its records: the answer, and the files
 * its include entries name (includeTarget; undefined when one of them cannot be resolved).
 */
function listConfig(
  top: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<{ answer: GitConfigAnswer; includes: string[] | undefined } | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', top, 'config', '--list', '--show-origin', '-z'],
      { env, timeout: 10_000, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
      (error, stdout) => {
        if (error) return resolve(undefined);
        // -z: records `<origin>\0<key>[\n<value>]\0`, the origin `file:<path>` (relative paths from `top`).
        const records = stdout.split('\0');
        const files: string[] = [];
        const hooksPaths: string[] = [];
        let includes: string[] | undefined = [];
        for (let i = 0; i + 1 < records.length; i += 2) {
          const origin = records[i] ?? '';
          const entry = records[i + 1] ?? '';
          if (origin.startsWith('file:')) {
            const file = joinRaw(top, origin.slice(5));
            if (!files.includes(file)) files.push(file);
          }
          const nl = entry.indexOf('\n');
          const key = nl > 0 ? entry.slice(0, nl).toLowerCase() : '';
          if (key === 'core.hookspath' && nl + 1 < entry.length) hooksPaths.push(expandHome(entry.slice(nl + 1), home));
          if (isIncludeKey(key) && nl + 1 < entry.length && includes) {
            const target = includeTarget(origin, entry.slice(nl + 1), top, home);
            if (target === undefined) includes = undefined;
            else includes.push(target);
          }
        }
        resolve({ answer: { files, hooksPaths }, includes });
      },
    );
  });
}
