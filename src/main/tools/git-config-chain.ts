/**
 * git's configuration files and the files they include, read as git reads them but WITHOUT their conditions: every
 * `[include]` and every `[includeIf "…"]` is followed whatever its condition (`gitdir:`, `onbranch:`,
 * `hasconfig:` …), because a condition that does not hold today (another branch, another folder) can hold on the
 * user's next git command. tools/git-dir.ts uses this to guard every file of the chain that lies inside the
 * project (its `core.fsmonitor`, `core.pager`, `alias.*` run code) and every `core.hooksPath` any of them sets.
 *
 * The format is git's own (config.c `git_parse_source`, `get_base_var`, `get_value`, `parse_value`): sections
 * `[name]`, `[name "sub"]` and the legacy `[name.sub]`, a key on the header's line or its own, values with `"…"`
 * quoting, `\\` `\"` `\n` `\t` `\b` escapes and `\`-newline continuation, `#` / `;` comments outside quotes.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { physicalPath } from '../fs/workspace';

/** One `key = value` of a config text: `key` as git names it (`section.sub.name`), `value` null for a bare key. */
export interface ConfigEntry {
  key: string;
  value: string | null;
}

/** git's `iskeychar`: letters, digits and `-`. */
const keyChar = (c: string): boolean => /^[A-Za-z0-9-]$/.test(c);
const space = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\v' || c === '\f';

/**
 * The entries of a git config text, in order. Section and key names are lower-cased as git compares them; a
 * quoted subsection keeps its case, a legacy `[a.B]` one is lower-cased (git does the same). git refuses a file
 * with a syntax error outright; here the bad line is skipped and reading goes on (more is guarded, never less).
 */
export function parseGitConfig(text: string): ConfigEntry[] {
  const s = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const out: ConfigEntry[] = [];
  let i = 0;
  let section = '';
  const skipLine = (): void => {
    while (i < s.length && s[i] !== '\n') i++;
  };
  while (i < s.length) {
    const c = s[i] as string;
    if (c === '\n' || space(c)) {
      i++;
    } else if (c === '#' || c === ';') {
      skipLine();
    } else if (c === '[') {
      const header = /^\[([A-Za-z0-9.-]+)(?:[ \t]+"((?:[^"\\\n]|\\[^\n])*)")?\]/.exec(s.slice(i, i + 4096));
      if (!header) {
        section = '\0'; // keys under a broken header belong to no section a reader knows
        skipLine();
        continue;
      }
      const sub = header[2] === undefined ? undefined : header[2].replace(/\\(.)/g, '$1');
      section = (header[1] ?? '').toLowerCase() + (sub === undefined ? '' : `.${sub}`);
      i += header[0].length;
    } else if (/[A-Za-z]/.test(c)) {
      let name = '';
      while (i < s.length && keyChar(s[i] as string)) name += (s[i++] as string).toLowerCase();
      while (s[i] === ' ' || s[i] === '\t') i++;
      if (i >= s.length || s[i] === '\n') {
        out.push({ key: `${section}.${name}`, value: null });
        continue;
      }
      if (s[i] !== '=') {
        skipLine();
        continue;
      }
      i++;
      const value = parseValue();
      if (value !== undefined) out.push({ key: `${section}.${name}`, value });
    } else {
      skipLine();
    }
  }
  return out;

  /** git's `parse_value` from just after `=`: undefined for an unterminated quote or an unknown escape. */
  function parseValue(): string | undefined {
    let value = '';
    let quote = false;
    let comment = false;
    let pending = 0;
    for (;;) {
      const c = i < s.length ? (s[i++] as string) : '\n';
      if (c === '\n') return quote ? undefined : value;
      if (comment) continue;
      if (space(c) && !quote) {
        if (value.length > 0) pending++;
        continue;
      }
      if (!quote && (c === '#' || c === ';')) {
        comment = true;
        continue;
      }
      value += ' '.repeat(pending);
      pending = 0;
      if (c === '\\') {
        const e = i < s.length ? (s[i++] as string) : '\n';
        if (e === '\n') continue;
        const escaped = ({ t: '\t', b: '\b', n: '\n', '\\': '\\', '"': '"' } as Record<string, string>)[e];
        if (escaped === undefined) {
          skipLine();
          return undefined;
        }
        value += escaped;
      } else if (c === '"') {
        quote = !quote;
      } else {
        value += c;
      }
    }
  }
}

/** True for a key that names a file to include: `include.path`, or `includeIf.<any condition>.path`. */
export function isIncludeKey(key: string): boolean {
  return key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path') && key.length > 15);
}

/**
 * A config path value as git's `interpolate_path` expands it: `~` and `~/…` are the home folder `home`, `~user/…`
 * is it when `user` is the current user (another user's home is not looked up: the value is then kept as
 * written). Anything else is returned as written; the caller resolves a relative value from where git does.
 */
export function expandHome(value: string, home: string): string {
  const m = /^~([^/\\]*)(?=[/\\]|$)/.exec(value);
  if (!m) return value;
  const user = m[1] ?? '';
  if (user !== '' && user !== safeUserName()) return value;
  return home + value.slice(m[0].length);
}

function safeUserName(): string | undefined {
  try {
    return os.userInfo().username;
  } catch {
    return undefined;
  }
}

/**
 * `rel` joined to folder `dir` as git joins paths, `dir/rel` without normalising (a `..` after a symlink is then
 * resolved physically when the path is opened: fs/workspace.ts `physicalPath`); an absolute `rel` as it is.
 */
export function joinRaw(dir: string, rel: string): string {
  return path.isAbsolute(rel) ? rel : `${dir.replace(/[\\/]+$/, '')}${path.sep}${rel}`;
}

/** What `configChain` found. */
export interface ConfigChain {
  /** Every file of the chain (absolute, as git would open it: joinRaw), the starts included, existing or not. */
  files: string[];
  /** Every `core.hooksPath` value of every file, `~` expanded (relative values are the caller's to resolve). */
  hooksPaths: string[];
  /** A file of the chain exists but is neither a regular file nor a folder (a FIFO, a device): git would block. */
  blocking: boolean;
}

/** How deep includes are followed (git's MAX_INCLUDE_DEPTH: deeper, git itself refuses the configuration). */
const MAX_INCLUDE_DEPTH = 10;
/** How many files one chain reads at most, and how many bytes of each (a config file is a few KiB). */
const MAX_FILES = 256;
const MAX_BYTES = 1024 * 1024;

/**
 * Every file git's configuration reads from the files `starts` (absolute paths: the system, global, repository
 * and worktree configs), following `[include]` and every `[includeIf]` whatever its condition, relative paths
 * joined to the including file's folder as strings and `~` from `home` (config.c `handle_path_include`), to
 * `MAX_INCLUDE_DEPTH` levels; a file seen once (by its fs/workspace.ts `physicalPath`) is not read again
 * (include cycles stop). A file that is missing, not a regular file
 * (a FIFO would block: `blocking`) or unreadable is listed but not read: creating it later would make it part of
 * the chain. Only the first MiB of a file is read. Files in `seen` (absolute) are skipped, and those read are
 * added to it. Never throws.
 */
export async function configChain(starts: string[], home: string, seen = new Set<string>()): Promise<ConfigChain> {
  const files: string[] = [];
  const hooksPaths: string[] = [];
  let blocking = false;
  const visit = async (abs: string, depth: number): Promise<void> => {
    const key = await physicalPath(abs);
    if (seen.has(key) || files.length >= MAX_FILES) return;
    seen.add(key);
    files.push(abs);
    const st = await fsp.stat(abs).catch(() => undefined);
    if (st && !st.isFile() && !st.isDirectory()) blocking = true;
    for (const e of parseGitConfig(await readSmall(abs))) {
      if (e.value === null || e.value === '') continue;
      if (e.key === 'core.hookspath') hooksPaths.push(expandHome(e.value, home));
      else if (isIncludeKey(e.key) && depth < MAX_INCLUDE_DEPTH)
        await visit(joinRaw(path.dirname(abs), expandHome(e.value, home)), depth + 1);
    }
  };
  for (const start of starts) await visit(start, 0);
  return { files, hooksPaths, blocking };
}

/** The first MiB of regular file `abs` as UTF-8; '' when it is missing, not a regular file, or unreadable. */
export async function readSmall(abs: string): Promise<string> {
  try {
    const st = await fsp.stat(abs);
    if (!st.isFile()) return '';
    const fh = await fsp.open(abs, 'r');
    try {
      const buf = Buffer.alloc(Math.min(st.size, MAX_BYTES));
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}
