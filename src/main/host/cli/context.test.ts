/**
 * `landfall sessions context`: a session run against the AI SDK mock model on a real data folder, then the
 * command prints the exact request of a step (system with the AGENTS.md line, every message), its tokens by
 * category, the window, the change against the request before, and the instruction files; a step that does not
 * exist is refused with a clear message and exit 1, a --step that is not a number with exit 2.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentService } from '../../agent/service';
import { mockModel } from '../../agent/context/context-test-kit';
import { cleanupTemp, tempDir } from '../../agent/testing/fixtures';
import { run } from './session';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  cleanupTemp(...dirs.splice(0));
});

async function capture(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
  const e = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((c: string | Uint8Array) => ((err += String(c)), true));
  try {
    return { code: await run('sessions', args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('landfall sessions context', () => {
  it('prints the exact request of a step, its tokens by category, the window and the change', async () => {
    const data = tempDir('ctx-data');
    const root = tempDir('ctx-proj');
    dirs.push(data, root);
    writeFileSync(path.join(root, 'AGENTS.md'), 'RULE-CLI-9: keep answers short.\n');
    writeFileSync(path.join(root, 'note.txt'), 'note body line\n');
    const opened = await AgentService.open({ dataDir: data });
    if (!opened.ok) throw new Error(opened.error.message);
    const svc = opened.value;
    const project = await svc.openProject(root);
    if (!project.ok) throw new Error(project.error.message);
    const session = svc.createSession(project.value.id);
    if (!session.ok) throw new Error(session.error.message);
    const id = session.value.id;
    await svc.runWithModel(
      id,
      mockModel([{ tool: 'read', args: { filePath: 'note.txt' } }, { text: 'short' }]),
      'read the note',
    );
    await svc.close();

    const shown = await capture(['context', id, '--step', '2', '--data', data]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(`session ${id} — request 2 of 2 (step 2 of message `);
    expect(shown.out).toContain('window: 128,000 tokens (fallback: no window is known for this model)');
    expect(shown.out).toMatch(/^ {2}instructions +\d+$/m);
    expect(shown.out).toMatch(/^ {2}tool results +\d+$/m);
    expect(shown.out).toContain(
      'change against request 1: pure append — system same, tools same, 1 messages kept, 0 dropped, 2 added;',
    );
    expect(shown.out).toContain(`  ${path.join(root, 'AGENTS.md')}  32 bytes`);
    expect(shown.out).toContain('RULE-CLI-9: keep answers short.');
    expect(shown.out).toContain('[1] user:\nread the note');
    expect(shown.out).toMatch(/\[3\] tool:\n[^\n]*note body line/);

    const json = await capture(['context', id, '--json', '--data', data]);
    const parsed = JSON.parse(json.out) as { step: { step: number; request: { messages: unknown[] } } };
    expect(parsed.step.step).toBe(2);
    expect(parsed.step.request.messages).toHaveLength(3);

    const missing = await capture(['context', id, '--step', '7', '--data', data]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`invalid_input: Session ${id} has no request 7.\nPick a step from 1 to 2.`);
    const bad = await capture(['context', id, '--step', 'last', '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--step takes a request number (1, 2, …), not "last"');
  });
});
