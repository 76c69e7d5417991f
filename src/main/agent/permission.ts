/**
 * Permission rules (DESIGN §6): each tool call is turned into a request (permission kind + patterns: root-relative
 * paths, or the bash command) and judged against rules `allow | ask | deny` per permission, tool and pattern.
 *
 * Algorithm, per pattern of the request:
 * 1. A configured `deny` rule that matches wins over everything, including an "always" answer saved this session.
 * 2. Otherwise a grant saved this session ("always") that matches allows.
 * 3. Otherwise the LAST matching configured rule decides (later rules refine earlier ones, like .gitignore).
 * 4. Nothing matches: the default for the permission (read: allow, edit: allow, bash: ask, external_directory: ask).
 * The request's action is the strictest over its patterns (deny > ask > allow).
 *
 * Path patterns are picomatch globs with dot files matched; a bash pattern is a command prefix (`npm test` matches
 * `npm test -- --watch`), `*` matches every command. Paths outside the project are asked as `external_directory`
 * by the caller (agent/gate.ts) before the tool's own permission.
 */
import picomatch from 'picomatch';
import type { PermissionRequest } from '../tools/types';

export type PermissionAction = 'allow' | 'ask' | 'deny';
export type PermissionKind = PermissionRequest['permission'];

/** One configured rule. `tool` narrows it to one tool name; `pattern` is a glob (paths) or a prefix (bash). */
export interface PermissionRule {
  permission: PermissionKind | '*';
  tool?: string;
  pattern: string;
  action: PermissionAction;
}

/** What an "always" answer saves for the rest of the session. */
export interface PermissionGrant {
  permission: PermissionKind;
  tool: string;
  patterns: string[];
}

const DEFAULTS: Record<PermissionKind, PermissionAction> = {
  read: 'allow',
  edit: 'allow',
  bash: 'ask',
  external_directory: 'ask',
};

const RANK: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/** True when `pattern` covers `value` for this permission kind (glob for paths, prefix for bash). */
export function patternMatches(kind: PermissionKind, pattern: string, value: string): boolean {
  if (pattern === '*' || pattern === '**') return true;
  if (kind === 'bash') {
    const p = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern;
    return value === p.trimEnd() || value.startsWith(p.endsWith(' ') ? p : `${p} `) || (pattern.endsWith('*') && value.startsWith(p));
  }
  return picomatch.isMatch(value, pattern, { dot: true });
}

function ruleApplies(rule: PermissionRule, request: PermissionRequest, value: string): boolean {
  if (rule.permission !== '*' && rule.permission !== request.permission) return false;
  if (rule.tool !== undefined && rule.tool !== request.tool) return false;
  return patternMatches(request.permission, rule.pattern, value);
}

function decideOne(rules: PermissionRule[], grants: PermissionGrant[], request: PermissionRequest, value: string): PermissionAction {
  const matching = rules.filter((r) => ruleApplies(r, request, value));
  if (matching.some((r) => r.action === 'deny')) return 'deny';
  const granted = grants.some(
    (g) => g.permission === request.permission && g.patterns.some((p) => patternMatches(request.permission, p, value)),
  );
  if (granted) return 'allow';
  const last = matching[matching.length - 1];
  return last ? last.action : DEFAULTS[request.permission];
}

/**
 * Decide a request: `deny`, `ask` or `allow` (strictest over its patterns; a request without patterns is judged
 * on `*`). Pure; rules come from settings, grants from this session's "always" answers.
 */
export function evaluatePermission(rules: PermissionRule[], grants: PermissionGrant[], request: PermissionRequest): PermissionAction {
  const values = request.patterns.length > 0 ? request.patterns : ['*'];
  let worst: PermissionAction = 'allow';
  for (const value of values) {
    const action = decideOne(rules, grants, request, value);
    if (RANK[action] > RANK[worst]) worst = action;
  }
  return worst;
}

/**
 * The grant an "always" answer saves: for bash the command's first word plus `*` style prefix (the whole command
 * when it is one word), for paths the exact paths asked about.
 */
export function grantFor(request: PermissionRequest): PermissionGrant {
  if (request.permission === 'bash') {
    const patterns = request.patterns.map((c) => {
      const words = c.trim().split(/\s+/);
      return words.length > 1 ? `${words.slice(0, 2).join(' ')}*` : words[0] ?? c;
    });
    return { permission: 'bash', tool: request.tool, patterns };
  }
  return { permission: request.permission, tool: request.tool, patterns: [...request.patterns] };
}
