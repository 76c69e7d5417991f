/**
 * Permission rules (DESIGN §6): each tool call is turned into a request (permission kind + patterns: root-relative
 * paths, or the bash command) and judged against rules `allow | ask | deny` per permission, tool and pattern.
 *
 * Algorithm, per pattern of the request:
 * 1. A configured `deny` rule that matches wins over everything, including an "always" answer saved this session.
 * 2. Otherwise a grant saved this session ("always") that matches allows.
 * 3. Otherwise the LAST matching configured rule decides (later rules refine earlier ones, like .gitignore).
 * 4. Nothing matches: the default for the permission (read: allow, edit: allow, bash: ask, external_directory: ask).
 * The request's action is the strictest over its patterns (deny > ask > allow). A bash line is judged per command
 * (`a && b` needs both allowed; a deny matches either), and command substitution is at least asked.
 *
 * Path patterns are picomatch globs with dot files matched; a bash pattern is a command prefix (`npm test` matches
 * `npm test -- --watch`), `*` matches every command. Paths outside the project are asked as `external_directory`
 * by the caller (agent/gate.ts) before the tool's own permission.
 */
import picomatch from 'picomatch';
import type { PermissionRequest } from '../tools/types';
import { commandSegments, hasSubstitution } from './bash-command';

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
    return (
      value === p.trimEnd() ||
      value.startsWith(p.endsWith(' ') ? p : `${p} `) ||
      (pattern.endsWith('*') && value.startsWith(p))
    );
  }
  return picomatch.isMatch(value, pattern, { dot: true });
}

function ruleApplies(rule: PermissionRule, request: PermissionRequest, value: string): boolean {
  if (rule.permission !== '*' && rule.permission !== request.permission) return false;
  if (rule.tool !== undefined && rule.tool !== request.tool) return false;
  return patternMatches(request.permission, rule.pattern, value);
}

function decideOne(
  rules: PermissionRule[],
  grants: PermissionGrant[],
  request: PermissionRequest,
  value: string,
): PermissionAction {
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
 * The values a request is judged on. Paths: the patterns themselves. Bash: every command of each line
 * (bash-command.ts commandSegments), so `git status && rm x` needs both commands allowed and a deny matches
 * either; the whole line too, so a rule written for a whole pipeline still applies.
 */
function valuesOf(request: PermissionRequest): string[] {
  if (request.patterns.length === 0) return ['*'];
  if (request.permission !== 'bash') return request.patterns;
  return [...new Set(request.patterns.flatMap((line) => [...commandSegments(line), line.trim()]))];
}

/**
 * Decide a request: `deny`, `ask` or `allow` — the strictest over its values (valuesOf; a request without
 * patterns is judged on `*`). A bash line with command substitution (`$(…)`, backticks) is at least `ask`: the
 * hidden command is seen by no rule. Pure; rules come from settings, grants from this session's "always" answers.
 */
export function evaluatePermission(
  rules: PermissionRule[],
  grants: PermissionGrant[],
  request: PermissionRequest,
): PermissionAction {
  const values = valuesOf(request);
  const wholeLines = new Set(request.permission === 'bash' ? request.patterns.map((l) => l.trim()) : []);
  let worst: PermissionAction =
    request.permission === 'bash' && request.patterns.some(hasSubstitution) ? 'ask' : 'allow';
  for (const value of values) {
    const action = decideOne(rules, grants, request, value);
    // a whole chained line counts only for deny: allowing it must not stand in for each command's own verdict
    if (wholeLines.has(value) && action !== 'deny' && values.length > 1) continue;
    if (RANK[action] > RANK[worst]) worst = action;
  }
  return worst;
}

/**
 * The grant an "always" answer saves: for bash, per command of the line (commandSegments), its first two words
 * plus `*` (the whole command when it is one word); for paths the exact paths asked about.
 */
export function grantFor(request: PermissionRequest): PermissionGrant {
  if (request.permission === 'bash') {
    const patterns = request.patterns.flatMap(commandSegments).map((c) => {
      const words = c.split(/\s+/);
      return words.length > 1 ? `${words.slice(0, 2).join(' ')}*` : (words[0] ?? c);
    });
    return { permission: 'bash', tool: request.tool, patterns: [...new Set(patterns)] };
  }
  return { permission: request.permission, tool: request.tool, patterns: [...request.patterns] };
}
