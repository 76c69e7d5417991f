import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../fs/file-lock';
import { editTool, type EditInput } from './edit';
import { readTool } from './read';
import { makeWorkspace, type Workspace } from './tool-test-kit';
import type { ToolContext, ToolOutcome } from './types';
import { writeTool } from './write';

let ws: Workspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const code = (o: ToolOutcome): string => (o.ok ? 'ok' : o.error.code);
const edit = (input: EditInput, extra?: Partial<ToolContext>): Promise<ToolOutcome> => ws.run(editTool, input, extra);

/** Put a file and read it, as every bug scenario starts. */
async function given(rel: string, bytes: string): Promise<void> {
  await ws.put(rel, bytes);
  expect(code(await ws.run(readTool, { filePath: rel }))).toBe('ok');
}

describe('edit: concurrency (per-file lock)', () => {
  it('two edits to different parts of one file, the first held inside the lock: both survive', async () => {
    await given('two.txt', 'top\nmiddle\nbottom\n');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let firstAsked!: () => void;
    const asked = new Promise<void>((r) => (firstAsked = r));
    const first = edit({ filePath: 'two.txt', oldString: 'top', newString: 'TOP' }, {
      ask: async () => {
        firstAsked();
        await gate; // held inside the lock, after matching, before writing
        return { allow: true };
      },
    });
    await asked;
    const second = edit({ filePath: 'two.txt', oldString: 'bottom', newString: 'BOTTOM' });
    await new Promise((r) => setTimeout(r, 30));
    expect(await ws.raw('two.txt')).toBe('top\nmiddle\nbottom\n');
    release();
    expect((await Promise.all([first, second])).map(code)).toEqual(['ok', 'ok']);
    expect(await ws.raw('two.txt')).toBe('TOP\nmiddle\nBOTTOM\n');
  });

  it('B29: concurrent edits of lines 50 and 75 of `seq 1 100` both land; 8 parallel edits × 20 rounds all land', async () => {
    const seq = Array.from({ length: 100 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    await given('n.txt', seq);
    const r = await Promise.all([
      edit({ filePath: 'n.txt', oldString: '\n50\n', newString: '\nFIFTY\n' }),
      edit({ filePath: 'n.txt', oldString: '\n75\n', newString: '\nSEVENTY-FIVE\n' }),
    ]);
    expect(r.map(code)).toEqual(['ok', 'ok']);
    expect(await ws.raw('n.txt')).toBe(seq.replace('\n50\n', '\nFIFTY\n').replace('\n75\n', '\nSEVENTY-FIVE\n'));
    for (let round = 0; round < 20; round++) {
      await given('n.txt', seq);
      const lines = [10, 20, 30, 40, 50, 60, 70, 80];
      const outs = await Promise.all(lines.map((n) => edit({ filePath: 'n.txt', oldString: `\n${n}\n`, newString: `\nL${n}\n` })));
      expect(outs.map(code)).toEqual(lines.map(() => 'ok'));
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
      expect([code(e), code(w)]).toEqual(['ok', 'ok']);
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
    const o = await edit({ filePath: 'alias.ts', oldString: 'a', newString: 'A' }, {
      ask: async () => {
        expect(inside).toBe(false);
        return { allow: true };
      },
    });
    await held;
    expect(code(o)).toBe('ok');
    expect(await ws.raw('src/lib.ts')).toBe('A\nb\n');
  });
});
