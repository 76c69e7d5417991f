/**
 * Every tool's model-facing text lives in a file beside the tool, and is what the model is sent: each tool has a
 * non-empty description file, every prose file is used, every call has the one form the bundle can inline, and
 * the loader sends the file's bytes (without its final line break).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineProse } from './prose-inline';
import { PROSE_CALL, proseText, toolProse } from './prose';
import { defaultTools } from './registry';

const TOOLS = path.resolve(process.cwd(), 'src/main/tools');

/** Each built-in tool and the file beside it that holds its description. */
const DESCRIPTION_FILES: Record<string, string> = {
  read: 'read.md',
  edit: 'edit.md',
  multiedit: 'multiedit.md',
  write: 'write.md',
  list: 'list.md',
  glob: 'glob.md',
  grep: 'grep.md',
  bash: 'bash.md',
  apply_patch: 'apply-patch/apply-patch.md',
  question: 'question.md',
  todowrite: 'todowrite.md',
  todoread: 'todoread.md',
};

const sources = (readdirSync(TOOLS, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => path.join(TOOLS, f));
const proseFiles = (readdirSync(TOOLS, { recursive: true }) as string[]).filter((f) => f.endsWith('.md'));

describe('tool prose files', () => {
  it('every built-in tool has a non-empty description file beside it, and sends exactly its text', () => {
    const tools = defaultTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(DESCRIPTION_FILES).sort());
    for (const t of tools) {
      const file = path.join(TOOLS, DESCRIPTION_FILES[t.name] as string);
      const text = proseText(readFileSync(file, 'utf8'));
      expect([t.name, text.trim().length > 0]).toEqual([t.name, true]);
      expect([t.name, t.description]).toEqual([t.name, text]);
    }
  });

  it('every prose file is read by a call beside it, and every call has the form the bundle inlines', () => {
    const used = new Set<string>();
    // the loader and the plugin name the call in their own words; every other module's calls are checked
    for (const src of sources.filter((f) => !/[\\/]prose(-inline)?\.ts$/.test(f))) {
      const code = readFileSync(src, 'utf8');
      for (const m of code.matchAll(PROSE_CALL))
        used.add(path.relative(TOOLS, path.resolve(path.dirname(src), m[1] as string)));
      // inlineProse throws on a call of any other form, and leaves no call behind
      expect(inlineProse(code, src).code).not.toMatch(/\btoolProse\s*\(/);
    }
    expect([...used].sort()).toEqual([...proseFiles].sort());
  });
});

describe('the loader', () => {
  it("sends the file's text without its final line break, and LF for CRLF", () => {
    expect(proseText('one line\n')).toBe('one line');
    expect(proseText('a\r\n b\r\n')).toBe('a\n b');
    expect(proseText('no final break')).toBe('no final break');
    expect(proseText('kept blank line\n\n')).toBe('kept blank line\n');
  });

  it('refuses a missing or empty prose file loudly (a packaging bug, not a model-facing failure)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'landfall-prose-'));
    try {
      writeFileSync(path.join(dir, 'empty.md'), '\n');
      expect(() => toolProse(new URL(`file://${dir}/empty.md`))).toThrow(/is empty/);
      expect(() => toolProse(new URL(`file://${dir}/missing.md`))).toThrow(/ENOENT/);
      expect(() => inlineProse("toolProse(new URL('./empty.md', import.meta.url))", path.join(dir, 'x.ts'))).toThrow(
        /is empty/,
      );
      expect(() => inlineProse('toolProse(someUrl)', path.join(dir, 'x.ts'))).toThrow(/must be called as/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
