/**
 * Reading a bash command line for the permission rules (permission.ts): which simple commands it runs, with
 * which words, and everything in it that the rules cannot see through. The line is parsed by a real shell parser
 * (tree-sitter's bash grammar, bash-parser.ts) and the tree is walked with a whitelist: only the constructs below
 * are "proven"; anything else makes the line `unproven`, and an unproven line is asked whatever the allow rules
 * say (a deny rule still denies it).
 *
 * Proven (judged command by command against the rules):
 * - simple commands, lists (`;`, `&&`, `||`, `&`, line breaks), pipelines (`|`, `|&`), `! cmd`, comments that
 *   start a word (a `#` after a blank or an operator, to the end of its line);
 * - words whose value is known without running anything: unquoted characters from a safe set (letters, digits,
 *   `_ @ % + = : , . / -`), a backslash before any character but a line break, single-quoted text, double-quoted
 *   text with no `$`, backtick or backslash inside, and concatenations of these;
 * - redirections that write nothing: `>`/`>>`/`&>`/`>|` to `/dev/null`, descriptor copies (`2>&1`, `>&2`,
 *   `<&-`), and input from a named file `< file` (its name is checked like an argument);
 * - commands without an option that runs a program or writes a file the line names (bash-options.ts:
 *   `git grep -O<program>`, `rg --pre`, `git diff --output=<file>` …; such files are write targets too).
 * Unproven (the whole line asks): a parse error; `$'…'` and `$"…"` quoting; parameter, arithmetic, brace and
 * tilde expansion (`$x`, `${x}`, `$((…))`, `{a,b}`, `~`); globs (`*`, `?`, `[`); command substitution (`$(…)`,
 * backticks) and process substitution (`<(…)`, `>(…)`); any redirection that writes a file; here-documents and
 * here-strings; environment assignments (`X=1 cmd`, `x=1`); subshells, `{ …; }`, functions, if/while/for/case,
 * `[[ … ]]`, declare/export/local/unset; `eval`, `exec`, `source`, `.`; a line continuation (backslash, newline)
 * or any text between commands that is not blank space or an operator.
 * Commands inside substitutions and inside `bash -c '…'` / `sh -c '…'` strings are collected too (`nested`), so a
 * deny rule sees them; they are never allowed by a rule (the line is unproven anyway).
 */
import type { BashNode } from './bash-parser';
import { withBashTree } from './bash-parser';
import { optionEffects } from './bash-options';

/** One simple command of a line. */
export interface BashCommand {
  /** Its words after quote removal — only when every word is proven literal. */
  words?: string[];
  /** Best-effort words for deny rules: the literal value where known, else the word's source text. */
  looseWords: string[];
  /** Its source text. */
  text: string;
  /** Inside a substitution or a `-c` string: judged for deny only. */
  nested: boolean;
}

/** What the permission rules need to know about one bash line. */
export interface BashAnalysis {
  line: string;
  /** Every simple command found, top-level first in line order, then nested ones. */
  commands: BashCommand[];
  /** Why the line cannot be proven covered (short phrases, e.g. "command substitution"); empty when proven. */
  unproven: string[];
  /**
   * The line written back from its parse (words re-quoted, single spaces, `;` between commands) when proven;
   * two lines with the same canonical form run the same commands. Undefined when unproven.
   */
  canonical?: string;
  /** Literal argument words and redirection targets (paths the line may touch), for the .git and read checks. */
  pathWords: string[];
  /** Targets of redirections that write (`> f`, `>> f` …; not `/dev/null`), literal or as written. */
  writeTargets: string[];
}

const SAFE_CHAR = /^[\p{L}\p{N}\p{M}_@%+=:,./-]$/u;
const BLANK = /^[ \t]*$/;
const SPACE = /^\s*$/;
const HIDING_COMMANDS = new Set(['eval', 'exec', 'source', '.']);
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const UNPROVEN_NODES: Record<string, string> = {
  ansi_c_string: "$'…' quoting",
  translated_string: '$"…" quoting',
  simple_expansion: 'a variable expansion',
  expansion: 'a parameter expansion',
  arithmetic_expansion: 'an arithmetic expansion',
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  brace_expression: 'a brace expansion',
  subshell: 'a subshell',
  compound_statement: 'a { …; } group',
  function_definition: 'a function definition',
  if_statement: 'an if statement',
  while_statement: 'a loop',
  for_statement: 'a loop',
  c_style_for_statement: 'a loop',
  case_statement: 'a case statement',
  test_command: 'a [[ … ]] test',
  declaration_command: 'a declaration (declare, export, local, readonly)',
  unset_command: 'unset',
  variable_assignment: 'a variable assignment',
  variable_assignments: 'a variable assignment',
  heredoc_redirect: 'a here-document',
  herestring_redirect: 'a here-string',
};

/** `text` as a shell word: bare when every character is safe, else single-quoted. */
export function shellQuote(text: string): string {
  if (text !== '' && [...text].every((c) => SAFE_CHAR.test(c))) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The value of an unquoted word, or undefined when a character in it has a meaning to the shell. */
function unquoted(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined || next === '\n' || next === '\r') return undefined;
      out += next;
      i++;
    } else if (SAFE_CHAR.test(c)) out += c;
    else return undefined;
  }
  return out;
}

class Walker {
  readonly commands: BashCommand[] = [];
  readonly nestedCommands: BashCommand[] = [];
  readonly unproven = new Set<string>();
  readonly pathWords: string[] = [];
  readonly writeTargets: string[] = [];
  readonly shellStrings: string[] = [];
  readonly tokens: string[] = [];

  constructor(private readonly line: string) {}

  private gapsOk(node: BashNode, blank: RegExp): boolean {
    let at = node.startIndex;
    for (const c of node.children) {
      if (!blank.test(this.line.slice(at, c.startIndex))) return false;
      at = c.endIndex;
    }
    return blank.test(this.line.slice(at, node.endIndex));
  }

  private refuse(reason: string, node?: BashNode): void {
    this.unproven.add(reason);
    if (node) this.collectNested(node);
  }

  /** Commands anywhere below `node` (substitutions, groups, loops…) for deny rules. */
  private collectNested(node: BashNode): void {
    for (const c of node.namedChildren) {
      if (c.type === 'command') {
        const loose = c.namedChildren.filter((w) => !w.type.endsWith('redirect') && w.type !== 'variable_assignment');
        this.nestedCommands.push({
          looseWords: loose.map((w) => this.literal(w, false) ?? w.text),
          text: c.text,
          nested: true,
        });
      }
      this.collectNested(c);
    }
  }

  /** The literal value of a word node, or undefined (and, when `record`, the reason is noted). */
  literal(node: BashNode, record = true): string | undefined {
    const no = (reason: string): undefined => {
      if (record) this.refuse(reason, node);
      return undefined;
    };
    switch (node.type) {
      case 'word': {
        const v = unquoted(node.text);
        return v ?? no(`a word with shell expansions or special characters (${node.text})`);
      }
      case 'number':
        return /^-?\d+$/.test(node.text) ? node.text : no(`a number the checker does not know (${node.text})`);
      case 'raw_string':
        return node.text.slice(1, -1);
      case 'string': {
        const inner = node.text.slice(1, -1);
        const plain = node.namedChildren.every((c) => c.type === 'string_content') && !/[$`\\]/.test(inner);
        return plain ? inner : no('a double-quoted word with expansions or escapes');
      }
      case 'concatenation':
      case 'command_name': {
        if (!this.gapsOk(node, /^$/)) return no('a word the checker cannot read');
        let out = '';
        for (const c of node.children) {
          const v = this.literal(c, record);
          if (v === undefined) return undefined;
          out += v;
        }
        return out;
      }
      default:
        return no(UNPROVEN_NODES[node.type] ?? `an unknown construct (${node.type})`);
    }
  }

  private redirect(node: BashNode): string | undefined {
    if (node.type !== 'file_redirect') return void this.refuse(UNPROVEN_NODES[node.type] ?? 'a redirection', node);
    if (!this.gapsOk(node, BLANK)) return void this.refuse('a redirection the checker cannot read');
    const ops = node.children.filter((c) => !c.isNamed);
    const op = ops[0]?.text ?? '';
    const fd = node.namedChildren.find((c) => c.type === 'file_descriptor')?.text ?? '';
    // exactly [descriptor] operator target: the grammar folds words after a redirection into it (`2>/dev/null
    // $(rm x)`), and what it folds is not proven to be what bash does with them
    const targets = node.namedChildren.filter((c) => c.type !== 'file_descriptor');
    if (ops.length !== 1 || targets.length !== 1) return void this.refuse('words after a redirection', node);
    const dest = targets[0] as BashNode;
    const target = this.literal(dest);
    if (target === undefined) {
      if (WRITE_OPS.has(op) || op === '>&') this.writeTargets.push(dest.text);
      return undefined;
    }
    if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target)) return `${fd}${op}${target}`;
    if (WRITE_OPS.has(op) || op === '>&') {
      if (target === '/dev/null') return `${fd}${op}/dev/null`;
      this.pathWords.push(target);
      this.writeTargets.push(target);
      return void this.refuse(`output redirected to a file (${op} ${target})`);
    }
    if (op === '<') {
      this.pathWords.push(target);
      return `${fd}<${shellQuote(target)}`;
    }
    return void this.refuse(`a redirection the checker does not know (${op})`);
  }

  /** A simple command; `redirects` are the rendered redirections of an enclosing redirected_statement. */
  private command(node: BashNode, redirects: string[]): void {
    if (!this.gapsOk(node, BLANK)) this.refuse('a line continuation or text the checker cannot place');
    const words: Array<string | undefined> = [];
    const loose: string[] = [];
    const own: string[] = [];
    for (const c of node.children) {
      if (!c.isNamed) {
        this.refuse(`a construct the checker does not know (${c.text})`);
        continue;
      }
      if (c.type.endsWith('redirect')) {
        const r = this.redirect(c);
        if (r !== undefined) own.push(r);
        continue;
      }
      if (c.type === 'variable_assignment') {
        this.refuse(`an environment assignment before the command (${c.text})`, c);
        continue;
      }
      const v = this.literal(c);
      words.push(v);
      loose.push(v ?? c.text);
    }
    const literal = words.every((w): w is string => w !== undefined) ? words : undefined;
    const name = literal?.[0];
    if (name !== undefined && HIDING_COMMANDS.has(name)) this.refuse(`${name} runs text the rules cannot see`);
    if (name !== undefined && SHELLS.has(name.split('/').pop() ?? '')) {
      const i = literal?.indexOf('-c') ?? -1;
      const script = i >= 0 ? literal?.[i + 1] : undefined;
      if (script !== undefined) this.shellStrings.push(script);
    }
    if (literal) this.pathWords.push(...literal.slice(1));
    if (literal) this.options(literal);
    this.commands.push({ ...(literal ? { words: literal } : {}), looseWords: loose, text: node.text, nested: false });
    if (literal) this.token([...literal.map(shellQuote), ...own, ...redirects].join(' '));
  }

  /** A command's options that run a program or write a file the line names (bash-options.ts): unproven. */
  private options(words: string[]): void {
    const effects = optionEffects(words);
    for (const why of effects.runs) this.refuse(why);
    for (const target of effects.writes) {
      this.pathWords.push(target);
      this.writeTargets.push(target);
      this.refuse(`${words[0] ?? ''} writes a file an option names (${target})`);
    }
  }

  private token(statement: string): void {
    const last = this.tokens[this.tokens.length - 1];
    if (last !== undefined && !['&&', '||', '|', '|&', ';', '&', '!'].includes(last)) this.tokens.push(';');
    this.tokens.push(statement);
  }

  private comment(node: BashNode): void {
    const before = node.startIndex === 0 ? '' : this.line[node.startIndex - 1];
    const placed = before === '' || /[\s;&|()]/.test(before as string);
    if (!placed || node.text.includes('\n')) this.refuse('a comment the checker cannot place');
  }

  /** A statement or a list of them (program, list, pipeline). */
  statement(node: BashNode): void {
    switch (node.type) {
      case 'program':
      case 'list':
      case 'pipeline':
        if (!this.gapsOk(node, SPACE)) this.refuse('text between commands the checker cannot place');
        for (const c of node.children) {
          if (c.isNamed) this.statement(c);
          else if (['&&', '||', '|', '|&', ';', '&'].includes(c.text)) this.tokens.push(c.text);
          else if (!SPACE.test(c.text)) this.refuse(`an operator the checker does not know (${c.text})`);
        }
        return;
      case 'redirected_statement': {
        if (!this.gapsOk(node, BLANK)) this.refuse('a redirection the checker cannot place');
        const body = node.childForFieldName('body');
        if (node.children.some((c) => !c.isNamed)) this.refuse('a redirection the checker does not know');
        const rendered = node.namedChildren
          .filter((c) => c.id !== body?.id)
          .map((r) => this.redirect(r))
          .filter((r): r is string => r !== undefined);
        if (body?.type === 'command') this.command(body, rendered);
        else if (body) this.refuse('a redirected compound command', body);
        return;
      }
      case 'command':
        return this.command(node, []);
      case 'negated_command':
        this.tokens.push('!');
        for (const c of node.namedChildren) this.statement(c);
        return;
      case 'comment':
        return this.comment(node);
      default:
        this.refuse(UNPROVEN_NODES[node.type] ?? `an unknown construct (${node.type})`, node);
    }
  }
}

function walk(line: string, root: BashNode): Walker {
  const w = new Walker(line);
  if (root.hasError) w.unproven.add('the line does not parse as bash');
  w.statement(root);
  return w;
}

/**
 * Analyse a bash line (see the module docstring). Never throws: a parser that cannot load makes the line
 * unproven. `depth` bounds the `bash -c '…'` recursion (3 levels; deeper strings are unproven).
 */
export async function analyseBash(line: string, depth = 0): Promise<BashAnalysis> {
  let w: Walker;
  try {
    w = await withBashTree(line, (root) => walk(line, root));
  } catch (e) {
    return {
      line,
      commands: [],
      unproven: [`the shell parser is unavailable (${(e as Error).message})`],
      pathWords: [],
      writeTargets: [],
    };
  }
  const nested: BashCommand[] = [...w.nestedCommands];
  for (const script of w.shellStrings) {
    if (depth >= 3) {
      w.unproven.add('shell strings nested too deep');
      continue;
    }
    const inner = await analyseBash(script, depth + 1);
    nested.push(...inner.commands.map((c) => ({ ...c, nested: true })));
  }
  const unproven = [...w.unproven];
  return {
    line,
    commands: [...w.commands, ...nested],
    unproven,
    ...(unproven.length === 0 && w.commands.length > 0 ? { canonical: w.tokens.join(' ') } : {}),
    pathWords: w.pathWords,
    writeTargets: w.writeTargets,
  };
}
