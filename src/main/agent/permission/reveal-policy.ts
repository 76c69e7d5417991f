/**
 * Which files the model may see (tools/types.ts RevealGuard), from the read rules in force right now: a file a
 * read rule denies is withheld — the file tools refuse it, grep skips it, glob and list leave it out,
 * apply_patch refuses to touch it, and a bash line naming it is asked. From bulk results (grep, glob, list) a
 * file an ask rule covers is withheld too, unless an "always" answer of this session covers it: nobody was
 * asked about it (reading it by name asks). Rules narrowed to one tool (`tool`) count for every tool here: a deny
 * written for `read` must not be bypassed through `grep`. Callers check the real path (and the name given), so a
 * symlink alias of `.env` is withheld too.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { RevealGuard } from '../../tools/types';
import { decidePermission, pathPatternMatches } from './rules';
import type { PermissionGrant, PermissionRule } from './rules';

/** The guard for one tool call: `rules` as read for it, `grants` of its session. */
export function revealGuard(rules: PermissionRule[], grants: PermissionGrant[]): RevealGuard {
  const readRules = rules
    .filter((r) => r.permission === 'read' || r.permission === '*')
    .map(({ tool: _tool, ...r }) => r);
  return {
    withheld(rel, bulk = false) {
      const v = decidePermission(readRules, grants, { tool: 'read', permission: 'read', patterns: [rel], title: '' });
      if (v.action === 'allow' || (v.action === 'ask' && !bulk)) return undefined;
      const rule = [...readRules].reverse().find((r) => r.action === v.action && pathPatternMatches(r.pattern, rel));
      return `a read rule ${v.action === 'deny' ? 'denies' : 'asks for'} it${rule ? ` ("${rule.pattern}")` : ''}`;
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
