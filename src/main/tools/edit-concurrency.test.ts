import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../fs/file-lock';
import { applyPatchTool } from './apply-patch';
import { editTool, type EditInput } from './edit';
import { readTool } from './read';
import { codeOf, makeWorkspace, type Workspace } from './tool-test-kit';
import type { ToolContext, ToolOutcome } from './types';
import { writeTool } from './write';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const edit = (input: EditInput, extra?: Partial<ToolContext>): Promise<ToolOutcome> => ws.run(editTool, input, extra);

/** Put a file and read it, as every bug scenario starts. */
async function given(rel: string, bytes: string): Promise<void> {
  await ws.put(rel, bytes);
  expect(codeOf(await ws.run(readTool, { filePath: rel }))).toBe('ok');
}

describe('edit: concurrency (per-file lock)', () => {
  it('two edits to different parts of one file, the first held inside the lock: both survive', async () => {
    await given('two.txt', 'top\nmiddle\nbottom\n');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstAsked!: () => void;
    const asked = new Promise<void>((r) => (firstAsked = r));
    const first = edit(
      { filePath: 'two.txt', oldString: 'top', newString: 'TOP' },
      {
        ask: async () => {
          firstAsked();
          await gate; // held inside the lock, after matching, before writing
          return { allow: true };
        },
      },
    );
    await asked;
    const second = edit({ filePath: 'two.txt', oldString: 'bottom', newString: 'BOTTOM' });
    await new Promise((r) => setTimeout(r, 30));
    expect(await ws.raw('two.txt')).toBe('top\nmiddle\nbottom\n');
    release();
    expect((await Promise.all([first, second])).map(codeOf)).toEqual(['ok', 'ok']);
    expect(await ws.raw('two.txt')).toBe('TOP\nmiddle\nBOTTOM\n');
  });

  it('B29: concurrent edits of lines 50 and 75 of `seq 1 100` both land; 8 parallel edits × 20 rounds all land', async () => {
    const seq = Array.from({ length: 100 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    await given('n.txt', seq);
    const r = await Promise.all([
      edit({ filePath: 'n.txt', oldString: '\n50\n', newString: '\nFIFTY\n' }),
      edit({ filePath: 'n.txt', oldString: '\n75\n', newString: '\nSEVENTY-FIVE\n' }),
    ]);
    expect(r.map(codeOf)).toEqual(['ok', 'ok']);
    expect(await ws.raw('n.txt')).toBe(seq.replace('\n50\n', '\nFIFTY\n').replace('\n75\n', '\nSEVENTY-FIVE\n'));
    for (let round = 0; round < 20; round++) {
      await given('n.txt', seq);
      const lines = [10, 20, 30, 40, 50, 60, 70, 80];
      const outs = await Promise.all(
        lines.map((n) => edit({ filePath: 'n.txt', oldString: `\n${n}\n`, newString: `\nL${n}\n` })),
      );
      expect(outs.map(codeOf)).toEqual(lines.map(() => 'ok'));
      let expected = seq;
      for (const n of lines) expected = expected.replace(`\n${n}\n`, `\nL${n}\n`);
      expect(await ws.raw('n.txt')).toBe(expected);
    }
  });

  it('B29: an edit and a write of the same file in one turn are serialised; neither is refused by the other, nothing truncated', async () => {
    for (let round = 0; round < 5; round++) {
      await given('m.txt', 'a\nb\n');
      const [e, w] = await Promise.all([
        edit({ filePath: 'm.txt', oldString: 'b', newString: 'B' }),
        ws.run(writeTool, { filePath: 'm.txt', content: 'a\nb\nc\n' }),
      ]);
      expect([codeOf(e), codeOf(w)]).toEqual(['ok', 'ok']);
      expect(['a\nb\nc\n', 'a\nB\nc\n']).toContain(await ws.raw('m.txt'));
    }
  });

  it('the lock is keyed by real path: edits through a symlink alias and the target serialise', async () => {
    await given('src/lib.ts', 'a\nb\n');
    symlinkSync('src/lib.ts', path.join(ws.root, 'alias.ts'));
    let inside = false;
    const held = withFileLock(path.join(ws.root, 'src/lib.ts'), async () => {
      inside = true;
      await new Promise((r) => setTimeout(r, 30));
      inside = false;
    });
    const o = await edit(
      { filePath: 'alias.ts', oldString: 'a', newString: 'A' },
      {
        ask: async () => {
          expect(inside).toBe(false);
          return { allow: true };
        },
      },
    );
    await held;
    expect(codeOf(o)).toBe('ok');
    expect(await ws.raw('src/lib.ts')).toBe('A\nb\n');
  });
});

describe('apply_patch and edit on one file at once (the same per-file lock)', () => {
  it('a patch held at its permission prompt and an edit through a symlinked name: both land, neither is lost', async () => {
    await given('cfg.txt', 'a = 1\nb = 2\nc = 3\n');
    symlinkSync('cfg.txt', path.join(ws.root, 'alias.txt'));
    expect(codeOf(await ws.run(readTool, { filePath: 'alias.txt' }))).toBe('ok');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const patchAsked = new Promise<void>((r) => (asked = r));
    const patchText = '*** Begin Patch\n*** Update File: cfg.txt\n@@\n-a = 1\n+a = 10\n*** End Patch\n';
    const patched = ws.run(applyPatchTool, { patchText }, { ask: async () => (asked(), await gate, { allow: true }) });
    await patchAsked;
    const edited = edit({ filePath: 'alias.txt', oldString: 'c = 3', newString: 'c = 30' });
    release();
    expect((await Promise.all([patched, edited])).map(codeOf)).toEqual(['ok', 'ok']);
    expect(await ws.raw('cfg.txt')).toBe('a = 10\nb = 2\nc = 30\n');
  });
});
