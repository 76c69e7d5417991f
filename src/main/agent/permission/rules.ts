/**
 * Permission rules (DESIGN §6): each tool call is turned into a request (permission kind + patterns: root-relative
 * real paths, or the bash command) and judged against rules `allow | ask | deny` per permission, tool and pattern.
 *
 * Paths (read, edit, external_directory), per pattern of the request:
 * 1. a configured `deny` rule that matches wins over everything, including an "always" answer of this session;
 * 2. otherwise an "always" grant of this session that names exactly this path allows;
 * 3. otherwise the LAST matching configured rule decides (later rules refine earlier ones, like .gitignore);
 * 4. nothing matches: the permission's default (read: allow, edit: allow, external_directory: ask).
 * The request's action is the strictest over its patterns (deny > ask > allow).
 *
 * Bash lines are parsed (bash-command.ts) and judged command by command:
 * 1. a deny rule matching any command anywhere in the line (also inside `$(…)` or `bash -c '…'`, also by the
 *    command's base name: `/bin/rm` is `rm`) denies the line;
 * 2. an exact "always" grant for this very line (same canonical form, or the same text when it is unproven)
 *    allows it;
 * 3. anything the parser cannot prove (expansions, substitutions, writing redirections…) or an extra reason the
 *    caller found (a word naming a file a read rule withholds) asks — unless the rules allow every command
 *    whatsoever (an allow rule `*` with no ask or deny rule for bash; then a hidden command is allowed too);
 * 4. otherwise every command must be allowed: by a pattern grant of this session, else by the last matching
 *    configured rule, else the default (ask).
 * A bash pattern is words separated by spaces that must be the command's first words (`npm test` matches
 * `npm test -- --watch`, not `npm testing`); a final `*` (alone or glued to the last word) adds nothing, and `*`
 * alone matches every command. Quoting inside patterns is not understood (such a pattern simply never matches).
 *
 * `git_dir` (a write into a repository's own `.git` folder) is asked every time: no allow rule and no grant
 * covers it; a deny rule for `git_dir` (or `*`) denies it.
 */
import picomatch from 'picomatch';
import { z } from 'zod';
import { PermissionKindSchema, type PermissionKind } from '../../../shared/permission-schemas';
import type { PermissionRequest } from '../../tools/types';
import type { BashAnalysis, BashCommand } from './bash-command';

export type { PermissionKind } from '../../../shared/permission-schemas';

/** What a rule (or the default) decides for a request. */
export const PermissionActionSchema = z.enum(['allow', 'ask', 'deny']);
export type PermissionAction = z.infer<typeof PermissionActionSchema>;

/**
 * One configured rule, as settings.json holds it (the settings schema embeds this one). `tool` narrows it to one
 * tool name; `pattern` is a glob (paths) or words (bash); `permission: '*'` applies to every kind.
 */
export const PermissionRuleSchema = z.object({
  permission: z.enum([...PermissionKindSchema.options, '*']),
  tool: z.string().optional(),
  pattern: z.string().min(1),
  action: PermissionActionSchema,
});
export type PermissionRule = z.infer<typeof PermissionRuleSchema>;

/**
 * What an "always" answer saves for the rest of the session: `exact` — these very paths, or these very bash
 * lines (canonical forms, or raw text for unproven lines); `pattern` — a bash pattern the user wrote in the
 * prompt, judged like a configured allow rule (it never lets an unproven line through).
 */
export type PermissionGrant =
  | { kind: 'exact'; permission: PermissionKind; values: string[] }
  | { kind: 'pattern'; permission: 'bash'; pattern: string };

/** The decision and, for `ask`/`deny`, why (shown in the prompt or to the model). */
export interface PermissionVerdict {
  action: PermissionAction;
  reasons: string[];
}

const DEFAULTS: Record<PermissionKind, PermissionAction> = {
  read: 'allow',
  edit: 'allow',
  bash: 'ask',
  external_directory: 'ask',
  git_dir: 'ask',
};

const RANK: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/** The words a bash pattern must see first; `*` alone (or empty) is every command → []. */
function patternWords(pattern: string): string[] {
  const words = pattern
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  if (last === '*' || last === '**') words.pop();
  else if (last !== undefined && last.endsWith('*')) words[words.length - 1] = last.replace(/\*+$/, '');
  return words.filter((w) => w !== '');
}

/** True when bash `pattern` covers a command with these words (module docstring). */
export function bashPatternMatches(pattern: string, words: string[]): boolean {
  const want = patternWords(pattern);
  return want.length <= words.length && want.every((w, i) => words[i] === w);
}

/** True when a path glob `pattern` covers root-relative `value` (picomatch, dot files matched). */
export function pathPatternMatches(pattern: string, value: string): boolean {
  if (pattern === '*' || pattern === '**') return true;
  return picomatch.isMatch(value, pattern, { dot: true });
}

/** pathPatternMatches with `pattern` compiled once: for judging many paths against one rule (a walk). */
export function pathPatternMatcher(pattern: string): (value: string) => boolean {
  if (pattern === '*' || pattern === '**') return () => true;
  const matches = picomatch(pattern, { dot: true });
  return (value) => matches(value);
}

function ruleKindApplies(rule: PermissionRule, request: PermissionRequest): boolean {
  if (rule.permission !== '*' && rule.permission !== request.permission) return false;
  return rule.tool === undefined || rule.tool === request.tool;
}

/** The command's words as a deny rule sees them: as written, and with the command's base name (`/bin/rm` → rm). */
function denyViews(c: BashCommand): string[][] {
  const words = c.words ?? c.looseWords;
  const first = words[0] ?? '';
  const baseName = first.split('/').pop() ?? first;
  return baseName === first ? [words] : [words, [baseName, ...words.slice(1)]];
}

/**
 * True when the rules allow every command whatsoever: an allow rule for `*` with no ask or deny rule after it
 * and no deny rule at all. Then even a command hidden in `$(…)` is one the rules allow, so an unproven line
 * needs no question. Any ask or deny rule makes unproven lines ask again (the hidden command could be one).
 */
function allowsEverything(applicable: PermissionRule[]): boolean {
  const i = applicable.map((r) => r.action === 'allow' && patternWords(r.pattern).length === 0).lastIndexOf(true);
  if (i < 0) return false;
  return applicable.every((r) => r.action !== 'deny') && applicable.slice(i).every((r) => r.action === 'allow');
}

function decideBash(
  rules: PermissionRule[],
  grants: PermissionGrant[],
  request: PermissionRequest,
  bash: BashAnalysis,
  extraAsk: string[],
): PermissionVerdict {
  const applicable = rules.filter((r) => ruleKindApplies(r, request));
  for (const c of bash.commands) {
    const deny = applicable.find(
      (r) => r.action === 'deny' && denyViews(c).some((w) => bashPatternMatches(r.pattern, w)),
    );
    if (deny) return { action: 'deny', reasons: [`the rule "${deny.pattern}" denies ${c.text}`] };
  }
  const exact = bash.canonical ?? bash.line.trim();
  if (grants.some((g) => g.kind === 'exact' && g.permission === 'bash' && g.values.includes(exact)))
    return { action: 'allow', reasons: [] };
  if (extraAsk.length === 0 && allowsEverything(applicable)) return { action: 'allow', reasons: [] };
  if (bash.unproven.length > 0 || extraAsk.length > 0)
    return { action: 'ask', reasons: [...bash.unproven, ...extraAsk] };
  const patterns = grants.flatMap((g) => (g.kind === 'pattern' ? [g.pattern] : []));
  let worst: PermissionAction = 'allow';
  const reasons: string[] = [];
  for (const c of bash.commands.filter((x) => !x.nested)) {
    const words = c.words as string[];
    if (patterns.some((p) => bashPatternMatches(p, words))) continue;
    const last = applicable.filter((r) => bashPatternMatches(r.pattern, words)).pop();
    const action = last ? last.action : DEFAULTS.bash;
    if (action !== 'allow')
      reasons.push(last ? `the rule "${last.pattern}" asks for ${c.text}` : `no rule allows ${c.text}`);
    if (RANK[action] > RANK[worst]) worst = action;
  }
  return { action: worst, reasons };
}

function decidePath(
  rules: PermissionRule[],
  grants: PermissionGrant[],
  request: PermissionRequest,
  value: string,
): PermissionAction {
  const matching = rules.filter((r) => ruleKindApplies(r, request) && pathPatternMatches(r.pattern, value));
  if (matching.some((r) => r.action === 'deny')) return 'deny';
  if (request.permission === 'git_dir') return 'ask';
  const granted = grants.some(
    (g) => g.kind === 'exact' && g.permission === request.permission && g.values.includes(value),
  );
  if (granted) return 'allow';
  const last = matching[matching.length - 1];
  return last ? last.action : DEFAULTS[request.permission];
}

/**
 * Decide a request (module docstring). Bash requests need `bash`, the analysis of the line (one line per bash
 * request); without it the request is asked. `extraAsk` are reasons the caller found to ask anyway (for bash:
 * a word naming a file a read rule withholds). Pure.
 */
export function decidePermission(
  rules: PermissionRule[],
  grants: PermissionGrant[],
  request: PermissionRequest,
  bash?: BashAnalysis,
  extraAsk: string[] = [],
): PermissionVerdict {
  if (request.permission === 'bash') {
    if (!bash) return { action: 'ask', reasons: ['the command was not analysed'] };
    return decideBash(rules, grants, request, bash, extraAsk);
  }
  let worst: PermissionAction = 'allow';
  const values = request.patterns.length === 0 ? ['*'] : request.patterns;
  for (const value of values) {
    const action = decidePath(rules, grants, request, value);
    if (RANK[action] > RANK[worst]) worst = action;
  }
  if (request.permission === 'git_dir' && worst !== 'deny') worst = 'ask';
  return { action: worst, reasons: extraAsk };
}
