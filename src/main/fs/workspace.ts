/**
 * The workspace boundary (DESIGN §3, fixtures/bugs/README.md B44): every path a tool touches is resolved against the project root,
 * and what is checked is the REAL path — the realpath of the file, or, when it does not exist yet, the realpath of
 * its nearest existing ancestor joined with the missing tail. Dangling symlinks (the last component or any
 * ancestor) are followed through `readlink` so a link pointing out of the root is caught before anything is
 * created through it. Comparing strings alone would let `ws/outbox -> ../OUTSIDE` through.
 *
 * The lexical path (`..` collapsed by `path.resolve`) is what tools open; the real path is what is checked, so
 * `outbox/../x` means `<root>/x` for both, never the kernel's "parent of the link target".
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../../shared/errors';

/** A path inside the project: `abs` as given (lexically resolved), `real` with every symlink followed. */
export interface ResolvedPath {
  /** Absolute lexical path (what the user named, `..` collapsed). */
  abs: string;
  /** Absolute real path (symlinks followed, including dangling ones and missing tails). */
  real: string;
  /** `real` relative to the real root, with `/` separators ('' for the root itself). */
  rel: string;
  /** Whether something exists at `real`. */
  exists: boolean;
}

const MAX_LINK_HOPS = 40;

/** Realpath of a project root (throws only when the root itself is missing — a bug in the caller). */
export async function realRoot(root: string): Promise<string> {
  return fsp.realpath(path.resolve(root));
}

/** True when `child` equals `parent` or lies below it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * Real path of `p`, following symlinks also where the target does not exist (dangling link, missing tail).
 * Throws `Error('ELOOP')` after 40 hops; other fs errors propagate.
 */
export async function realOf(p: string, hops = 0): Promise<{ real: string; exists: boolean }> {
  if (hops > MAX_LINK_HOPS) throw Object.assign(new Error('too many symlink hops'), { code: 'ELOOP' });
  try {
    return { real: await fsp.realpath(p), exists: true };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
  }
  const parent = path.dirname(p);
  if (parent === p) return { real: p, exists: false };
  const parentReal = (await realOf(parent, hops)).real;
  let st;
  try {
    st = await fsp.lstat(path.join(parentReal, path.basename(p)));
  } catch {
    return { real: path.join(parentReal, path.basename(p)), exists: false };
  }
  if (st.isSymbolicLink()) {
    const target = await fsp.readlink(path.join(parentReal, path.basename(p)));
    const next = await realOf(path.resolve(parentReal, target), hops + 1);
    return { real: next.real, exists: false };
  }
  return { real: path.join(parentReal, path.basename(p)), exists: false };
}

/**
 * Absolute path `raw` as the kernel resolves it when a program opens it, with `..` taken physically: a `..` after
 * a symlink leads to the parent of the symlink's target, not back to the symlink's folder (`a -> b/c`: `a/../x` is
 * `b/x`; `path.resolve` would say `x`). Symlinks elsewhere on the path stay as written (realOf resolves them).
 * Git builds include, `gitdir:` and hook paths by joining strings and opens them so. Never throws (a `..` after a
 * part that cannot be resolved is taken lexically).
 */
export async function physicalPath(raw: string): Promise<string> {
  const top = path.parse(raw).root;
  const parts = raw.slice(top.length).split(path.sep === '\\' ? /[\\/]+/ : /\/+/);
  if (!parts.includes('..')) return path.resolve(raw);
  let cur = top;
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part !== '..') cur = path.join(cur, part);
    else
      cur = path.dirname(
        await realOf(cur).then(
          (r) => r.real,
          () => cur,
        ),
      );
  }
  return cur;
}

/**
 * Why `p` could not be resolved: a symlink loop hides where the path leads, so it counts as leaving the root
 * (`outside_root`); a name too long for the file system is the caller's mistake (`invalid_input`); anything
 * else (EACCES on a folder…) is `io_error` — never reported as a boundary violation it is not.
 */
function unresolvable(p: string, e: unknown): Result<never> {
  const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
  if (code === 'ELOOP')
    return fail(
      'outside_root',
      `Cannot resolve ${p} (ELOOP: a symlink loop).`,
      'Use a path inside the project without symlink loops.',
      { path: p },
    );
  if (code === 'ENAMETOOLONG')
    return fail(
      'invalid_input',
      `The path ${p.slice(0, 80)}… is too long for the file system.`,
      'Use a shorter file name.',
      { path: p },
    );
  return fail(
    'io_error',
    `Cannot resolve ${p} (${code}: ${(e as Error).message}).`,
    'Check the permissions of the folders on this path.',
    { path: p, errno: code },
  );
}

/**
 * Resolve `p` (relative to `root`, or absolute) inside the project.
 * `root` should be the real project root (ToolContext.root); it is realpath'd again if it is not.
 * Errors: `outside_root` (lexical `..` escape that lands outside, absolute path outside, symlink whose real
 * target leaves the root, symlink loops), `invalid_input` (empty path, NUL byte, name too long), `io_error`
 * (a folder on the path cannot be searched).
 */
export async function resolveInRoot(root: string, p: string): Promise<Result<ResolvedPath>> {
  if (p.length === 0 || p.includes('\0')) {
    return fail(
      'invalid_input',
      'The path is empty or contains a NUL byte.',
      'Give a path relative to the project root.',
    );
  }
  const rootReal = await realRoot(root);
  const abs = path.isAbsolute(p) ? path.resolve(p) : path.resolve(rootReal, p);
  let resolved: { real: string; exists: boolean };
  try {
    resolved = await realOf(abs);
  } catch (e) {
    return unresolvable(p, e);
  }
  if (!isInside(rootReal, resolved.real)) {
    return fail(
      'outside_root',
      `${p} resolves to ${resolved.real}, which is outside the project root ${rootReal}.`,
      'Only files inside the project can be read or changed; use a path inside the project.',
      { path: p, real: resolved.real, root: rootReal },
    );
  }
  const rel = path.relative(rootReal, resolved.real).split(path.sep).join('/');
  return ok({ abs, real: resolved.real, rel, exists: resolved.exists });
}
