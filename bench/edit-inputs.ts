/**
 * Large-input half of the edit benchmark: synthetic files built in memory (deterministic, no randomness).
 */

/** A 20k-line TypeScript-like file whose every line is unique. */
export function bigFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 20 === 0) out.push(`export function step${i}(input: number): number {`);
    else if (i % 20 === 19) out.push('}');
    else out.push(`  const value${i} = compute(input, ${i}, "item-${i}") + offset${i % 7};`);
  }
  return out.join('\n') + '\n';
}

/** Change one character in the middle of a line: typo-level drift. */
export function drift(line: string): string {
  const at = Math.floor(line.length / 2);
  const ch = line[at] === 'x' ? 'y' : 'x';
  return line.slice(0, at) + ch + line.slice(at + 1);
}

/** A file holding a 300-line block, and an oldString for it with 10 % of its middle lines drifted. */
export function driftedBlock(): { content: string; old: string; fresh: string } {
  const head = bigFile(2000);
  const block: string[] = ['export class Ledger {'];
  for (let i = 1; i < 299; i++)
    block.push(`  entry${i}(amount: number) { return this.book.post("acct-${i}", amount * ${i}); }`);
  block.push('} // Ledger');
  const content = head + block.join('\n') + '\n' + bigFile(2000).replace(/step/g, 'tail');
  const oldLines = block.map((l, i) => (i > 0 && i < 299 && i % 10 === 5 ? drift(l) : l));
  const fresh = oldLines.map((l, i) => (i === 150 ? l.replace('amount *', 'amount /') : l)).join('\n');
  return { content, old: oldLines.join('\n'), fresh };
}

/** A 12,000-character minified line between two ordinary lines, and a 3-line oldString with the long line drifted. */
export function minified(): { content: string; old: string; fresh: string } {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < 12000; i++) parts.push(`function f${i}(a,b){return a*${i}+b}`);
  const long = parts.join(';').slice(0, 12000);
  const content = `// bundle header\n${long}\n//# sourceMappingURL=app.js.map\n`;
  const drifted = long.replace(/return a\*1(\d)\+b/g, 'return a*1$1 + b');
  const old = `// bundle header\n${drifted}\n//# sourceMappingURL=app.js.map`;
  const fresh = `// bundle header v2\n${long}\n//# sourceMappingURL=app.js.map`;
  return { content, old, fresh };
}

/** bigFile(20000) with CRLF line breaks. */
export function crlfFile(lines: number): string {
  return bigFile(lines).replace(/\n/g, '\r\n');
}

/** A 20k-line file where `log.debug(` stands on 2,499 lines (every 8th), for a replace-all. */
export function replaceAllFile(): { content: string; old: string; fresh: string; hits: number } {
  const lines = bigFile(20000).split('\n');
  let hits = 0;
  for (let i = 1; i < lines.length && hits < 2499; i += 8) {
    lines[i] = `  log.debug("step ${i}", value${i});`;
    hits++;
  }
  return { content: lines.join('\n'), old: 'log.debug(', fresh: 'log.trace(', hits };
}
