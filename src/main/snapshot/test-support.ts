/**
 * Helpers for the snapshot tests (not used by the store): temp folders, reading a work tree's state (files with
 * bytes and executable bit, symlinks with targets; empty folders and `.git` excluded), hashing a folder's every
 * byte, an independent tree-id oracle (git's tree format computed from scratch, used to check ids where native git
 * is absent and alongside it where present), and native git when it is on PATH.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temp folder; remove it with `cleanup`. */
export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `landfall-snap-${tag}-`));
}

/**
 * Sets the mtime of `root` and every folder under it an hour back: a folder listing older than the racy margin
 * (stat-entries.ts RACY_MS) is trusted, so a guided track may splice it.
 */
export function backdateFolders(root: string): void {
  const old = new Date(Date.now() - 3600_000);
  for (const d of readdirSync(root, { recursive: true, withFileTypes: true }))
    if (d.isDirectory()) utimesSync(join(d.parentPath, d.name), old, old);
  utimesSync(root, old, old);
}

/** Removes a temp folder (ignores absence). */
export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** One file's state: `f:<x?>:<base64>` for files, `l:<target>` for links. */
export type TreeState = Record<string, string>;

/** Reads every file and link under `root` (not following links, skipping every `.git`). */
export function readState(root: string, skip: (rel: string) => boolean = () => false): TreeState {
  const out: TreeState = {};
  const visit = (rel: string): void => {
    for (const name of readdirSync(rel === '' ? root : join(root, rel)).sort()) {
      if (name === '.git') continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      if (skip(path)) continue;
      const abs = join(root, path);
      const st = lstatSync(abs);
      if (st.isDirectory()) visit(path);
      else if (st.isSymbolicLink()) out[path] = `l:${readlinkSync(abs)}`;
      else out[path] = `f:${st.mode & 0o100 ? 'x' : '-'}:${readFileSync(abs).toString('base64')}`;
    }
  };
  visit('');
  return out;
}

/** sha256 of every entry (path, type, mode bits, bytes or link target) under `dir`, including dotfiles. */
export function hashFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const a = join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(a);
      if (st.isDirectory()) {
        out[`${r}/`] = `d:${(st.mode & 0o7777).toString(8)}`;
        visit(a, r);
      } else if (st.isSymbolicLink()) out[r] = `l:${readlinkSync(a)}`;
      else out[r] = `f:${(st.mode & 0o7777).toString(8)}:${createHash('sha256').update(readFileSync(a)).digest('hex')}`;
    }
  };
  visit(dir, '');
  return out;
}

function gitHash(type: string, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** Git's tree id of `dir` computed from scratch (no ignore rules; `.git` skipped; empty folders omitted). */
export function oracleTreeId(dir: string): string | undefined {
  const rows: { key: Buffer; line: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    if (name === '.git') continue;
    const abs = join(dir, name);
    const st = lstatSync(abs);
    let mode: string;
    let id: string | undefined;
    if (st.isDirectory()) {
      mode = '40000';
      id = oracleTreeId(abs);
    } else if (st.isSymbolicLink()) {
      mode = '120000';
      id = gitHash('blob', Buffer.from(readlinkSync(abs)));
    } else {
      mode = st.mode & 0o100 ? '100755' : '100644';
      id = gitHash('blob', readFileSync(abs));
    }
    if (!id) continue;
    rows.push({
      key: Buffer.from(mode === '40000' ? `${name}/` : name),
      line: Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(id, 'hex')]),
    });
  }
  if (rows.length === 0) return undefined;
  rows.sort((a, b) => Buffer.compare(a.key, b.key));
  return gitHash('tree', Buffer.concat(rows.map((r) => r.line)));
}

/** True when native git runs here. */
export function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `git write-tree` of `worktree` through a throwaway git dir (honours .gitignore like any git). */
export function nativeWriteTree(worktree: string, scratch: string): string {
  const env = { ...process.env, GIT_DIR: scratch, GIT_WORK_TREE: worktree, GIT_CONFIG_NOSYSTEM: '1', HOME: scratch };
  execFileSync('git', ['init', '-q'], { env });
  execFileSync('git', ['add', '-A'], { env });
  return execFileSync('git', ['write-tree'], { env, encoding: 'utf8' }).trim();
}
