/**
 * Reading a bash command line for the permission rules (permission.ts): which commands it runs, and whether it
 * hides commands where no rule can see them.
 *
 * A line is split into commands at the shell's list and pipeline operators (`&&`, `||`, `;`, `|`, `|&`, `&`, line
 * breaks) outside quotes, so a rule judges every command a line runs, not only the first (`git status && rm -rf
 * x` is two commands). Quotes (`'…'`, `"…"`) and backslash escapes keep operators as text; `&` next to `>` is a
 * redirection (`2>&1`, `&>`), not a background operator. This is a conservative reading for permission checks,
 * not a shell parser: an unusual form can only split into MORE pieces, and a piece no rule allows is asked.
 */

const OPERATORS = ['&&', '||', '|&', ';', '|', '&', '\n'] as const;

/** The operator starting at `i` of `line`, or undefined (a `&` that belongs to a redirection is none). */
function operatorAt(line: string, i: number): string | undefined {
  const op = OPERATORS.find((o) => line.startsWith(o, i));
  if (op === '&' && (line[i - 1] === '>' || line[i + 1] === '>')) return undefined;
  if (op === '|' && line[i - 1] === '>') return undefined;
  return op;
}

/**
 * The commands of a bash line, trimmed, empty ones dropped, in order.
 * @example commandSegments('ls && rm x; echo "a; b"') → ['ls', 'rm x', 'echo "a; b"']
 */
export function commandSegments(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote === "'") {
      current += ch;
      if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === '\\') {
      current += line.slice(i, i + 2);
      i++;
      continue;
    }
    if (quote === '"') {
      current += ch;
      if (ch === '"') quote = undefined;
      continue;
    }
    const op = operatorAt(line, i);
    if (op === undefined) {
      if (ch === '"' || ch === "'") quote = ch;
      current += ch;
      continue;
    }
    out.push(current);
    current = '';
    i += op.length - 1;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * True when the line runs a command inside another one — `$(…)`, backticks, or process substitution `<(…)` /
 * `>(…)` outside single quotes — which the permission rules cannot see, so such a line is at least asked.
 */
export function hasSubstitution(line: string): boolean {
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') quote = quote === '"' ? undefined : '"';
    else if (ch === "'" && quote === undefined) quote = "'";
    else if (ch === '`' || ((ch === '$' || ch === '<' || ch === '>') && line[i + 1] === '(')) return true;
  }
  return false;
}
