/**
 * Ignore rules for one walk, with git's precedence: the deepest `.gitignore` that has an opinion on a path
 * decides; then shallower ones; then `.git/info/exclude`; then the plain-folder defaults. Rules are read fresh on
 * every track (the walk pushes a frame when it enters a folder holding a `.gitignore`), so a newly ignored file
 * leaves the next tree. Matching is done by the `ignore` package, which implements .gitignore syntax.
 *
 * Edge: `ignore` also reports a path as ignored when one of its parent folders is. The walk only reaches a path
 * whose folders were not excluded, so a parent-inherited "ignored" can only come from a shallower frame that a
 * deeper frame overrode; such an inherited answer is treated as "no opinion" here.
 */
import ignore, { type Ignore } from 'ignore';

interface Frame {
  /** Folder of the rule file, worktree-relative, '' for the root. */
  base: string;
  ig: Ignore;
}

/** Builds a matcher from .gitignore-syntax text; undefined when it has no rules. */
export function compileRules(text: string | readonly string[]): Ignore | undefined {
  const lines = (typeof text === 'string' ? text.split(/\r?\n/) : [...text]).filter(
    (l) => l.trim() !== '' && !l.startsWith('#'),
  );
  if (lines.length === 0) return undefined;
  return ignore({ allowRelativePaths: true }).add(lines);
}

/** The ignore frames active at one point of the walk. */
export class IgnoreRules {
  private readonly stack: Frame[] = [];
  private readonly base: Frame[];

  /** `exclude` and `defaults` apply from the root with the lowest precedence (exclude above defaults). */
  constructor(exclude: Ignore | undefined, defaults: Ignore | undefined) {
    this.base = [];
    if (exclude) this.base.push({ base: '', ig: exclude });
    if (defaults) this.base.push({ base: '', ig: defaults });
  }

  /** True when no rule at all is active (lets the walk skip matching). */
  get empty(): boolean {
    return this.stack.length === 0 && this.base.length === 0;
  }

  /** Enters folder `dir` whose `.gitignore` has `text`. Returns true when a frame was pushed (pop it after). */
  push(dir: string, text: string): boolean {
    const ig = compileRules(text);
    if (!ig) return false;
    this.stack.push({ base: dir, ig });
    return true;
  }

  /** Leaves the folder whose frame was pushed last. */
  pop(): void {
    this.stack.pop();
  }

  /** True when `rel` (worktree-relative, '/'-separated) is ignored; `isDir` for folders. */
  ignored(rel: string, isDir: boolean): boolean {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const verdict = judge(this.stack[i] as Frame, rel, isDir);
      if (verdict !== undefined) return verdict;
    }
    for (const f of this.base) {
      const verdict = judge(f, rel, isDir);
      if (verdict !== undefined) return verdict;
    }
    return false;
  }
}

function judge(f: Frame, rel: string, isDir: boolean): boolean | undefined {
  const local = f.base === '' ? rel : rel.slice(f.base.length + 1);
  try {
    const r = f.ig.test(isDir ? `${local}/` : local);
    if (r.unignored) return false;
    if (!r.ignored) return undefined;
    const slash = local.lastIndexOf('/');
    if (slash > 0 && f.ig.test(`${local.slice(0, slash)}/`).ignored) return undefined;
    return true;
  } catch {
    // `ignore` refuses some names (e.g. ones it cannot treat as relative paths): no opinion.
    return undefined;
  }
}
