/**
 * Which files the model may see (tools/types.ts RevealGuard), from the read rules in force right now: a file a
 * read rule denies is withheld — the file tools refuse it, grep skips it, glob and list leave it out,
 * apply_patch refuses to touch it, and a bash line naming it is asked. From bulk results (grep, glob, list) a
 * file an ask rule covers is withheld too, unless an "always" answer of this session covers it: nobody was
 * asked about it (reading it by name asks). Rules narrowed to one tool (`tool`) count for every tool here: a deny
 * written for `read` must not be bypassed through `grep`. Callers check the real path (and the name given), so a
 * symlink alias of `.env` is withheld too; and the guard checks the file's identity, so a hard link of `.env`
 * (same device and inode, any name) is withheld as `.env` is (hard-links.ts).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { RevealGuard } from '../../tools/types';
import { hardLinkCheck } from './hard-links';
import { decidePermission, pathPatternMatcher, pathPatternMatches } from './rules';
import type { PermissionGrant, PermissionRule } from './rules';

/**
 * The guard for one tool call: `rules` as read for it, `grants` of its session. With `root`, a file is judged by
 * its identity too: a hard link of a denied file is denied (hard-links.ts).
 */
export function revealGuard(rules: PermissionRule[], grants: PermissionGrant[], root?: string): RevealGuard {
  const readRules = rules
    .filter((r) => r.permission === 'read' || r.permission === '*')
    .map(({ tool: _tool, ...r }) => r);
  const byPath = (rel: string, bulk: boolean): string | undefined => {
    const v = decidePermission(readRules, grants, { tool: 'read', permission: 'read', patterns: [rel], title: '' });
    if (v.action === 'allow' || (v.action === 'ask' && !bulk)) return undefined;
    const rule = [...readRules].reverse().find((r) => r.action === v.action && pathPatternMatches(r.pattern, rel));
    return `a read rule ${v.action === 'deny' ? 'denies' : 'asks for'} it${rule ? ` ("${rule.pattern}")` : ''}`;
  };
  const denyRules = readRules.filter((r) => r.action === 'deny');
  // only deny rules make a twin withheld: a path no deny rule names is never denied, so it is not even judged
  const denyMatchers = denyRules.map((r) => pathPatternMatcher(r.pattern));
  const deniedByPath = (rel: string): string | undefined =>
    denyMatchers.some((m) => m(rel)) ? byPath(rel, false) : undefined;
  const linked = root === undefined ? undefined : hardLinkCheck(root, deniedByPath, denyRules.length > 0);
  return {
    withheld(rel, bulk = false) {
      return byPath(rel, bulk) ?? linked?.(rel);
    },
  };
}

/** Root-relative forms of `p` to judge: as written (inside the root) and, when it exists, its real path. */
export async function relForms(root: string, p: string): Promise<string[]> {
  const abs = path.resolve(root, p);
  const forms = new Set<string>();
  const add = (a: string): void => {
    const rel = path.relative(root, a);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
    forms.add(rel.split(path.sep).join('/'));
  };
  add(abs);
  try {
    add(await fsp.realpath(abs));
  } catch {
    try {
      add(path.join(await fsp.realpath(path.dirname(abs)), path.basename(abs)));
    } catch {
      // neither the path nor its folder exists: the written form is all there is
    }
  }
  return [...forms];
}
