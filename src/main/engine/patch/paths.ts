/**
 * Pure path rules for patch headers (conformance README policy 3): paths are relative, normalised with '/'
 * separators ('.' and empty segments dropped, '..' folded), and must stay inside the root. Two spellings of one
 * path (`config.toml`, `./config.toml`) normalise to the same key, which is how the parser finds two operations
 * on one file. No fs here: the symlink side of the boundary is src/main/fs/workspace.ts's job.
 */

/** A header path after normalisation. `escapes` is set when it is absolute or climbs above the root. */
export interface NormalisedPath {
  path: string;
  absolute: boolean;
  escapes: boolean;
}

/** True for POSIX absolute paths, Windows drive paths (`C:\`, `C:/`) and UNC/backslash-rooted paths. */
function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('~/');
}

/**
 * Normalise a header path: `a/./b//c/../d` → `a/b/d`. An absolute path keeps a leading '/' marker so it never
 * collides with a relative one; a relative path that climbs above the root keeps its leading '..' segments.
 */
export function normalisePatchPath(raw: string): NormalisedPath {
  const absolute = isAbsolutePath(raw);
  const out: string[] = [];
  let climbs = 0;
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length > 0) out.pop();
      else climbs++;
      continue;
    }
    out.push(segment);
  }
  const body = [...Array<string>(climbs).fill('..'), ...out].join('/');
  return { path: absolute ? `/${body}` : body, absolute, escapes: absolute || climbs > 0 };
}
