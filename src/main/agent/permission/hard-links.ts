/**
 * A hard link is the same file under another name: `ln .env hard.txt` makes `hard.txt` show the bytes of `.env`
 * while its path (and its real path: no symlink is involved) matches no read rule. So a file is also judged by its
 * identity (device + inode): a regular file with more than one link is withheld when a file a read rule DENIES,
 * anywhere in the project, has the same device and inode.
 *
 * Cost: a file with one link (almost every file) costs one stat. The first file with more links (a pnpm store
 * links every package file) walks the project once — folders by readdir, and a stat only for the files a deny
 * rule names — to collect the denied identities with more than one link; that set serves the rest of the tool
 * call (one guard per call, reveal-policy.ts). No deny rule: no walk. The `.git` folder is not walked (its own
 * files are guarded by the git-dir rules). Symlinks are not followed (a symlink is judged by its real path).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Why `rel` is withheld as a hard link of a denied file (see module doc), or undefined. */
export type LinkCheck = (rel: string) => string | undefined;

/**
 * The identity check for files under `root`. `denied(rel)`: the reason a deny rule withholds `rel` by path, or
 * undefined; `anyDeny`: false when no deny rule exists (then nothing is walked or stat'ed).
 */
export function hardLinkCheck(root: string, denied: (rel: string) => string | undefined, anyDeny: boolean): LinkCheck {
  let identities: Map<string, string> | undefined;
  return (rel) => {
    if (!anyDeny) return undefined;
    const id = linkedIdentity(path.join(root, rel));
    if (id === undefined) return undefined;
    identities ??= deniedIdentities(root, denied);
    const twin = identities.get(id);
    if (twin === undefined || twin === rel) return undefined;
    return `it is a hard link of ${twin} (the same file), and ${denied(twin) ?? 'a read rule denies it'}`;
  };
}

/** `dev:ino` of a regular file with more than one link, else undefined (missing, a folder, or a single link). */
function linkedIdentity(abs: string): string | undefined {
  try {
    const st = statSync(abs, { bigint: true, throwIfNoEntry: false });
    if (st === undefined) return undefined;
    return st.isFile() && st.nlink > 1n ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** Identity → root-relative path of every denied file with more than one link (one walk of the project). */
export function deniedIdentities(root: string, denied: (rel: string) => string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const folders = [''];
  for (let dir = folders.pop(); dir !== undefined; dir = folders.pop()) {
    let entries;
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const rel = dir === '' ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (rel !== '.git') folders.push(rel);
      } else if (e.isFile() && denied(rel) !== undefined) {
        const id = linkedIdentity(path.join(root, rel));
        if (id !== undefined && !out.has(id)) out.set(id, rel);
      }
    }
  }
  return out;
}
