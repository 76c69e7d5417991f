/**
 * A revert never deletes (or overwrites) a file no snapshot captured (snapshot/keep.ts, hostile review): a step's
 * bash edits .gitignore so that an ignored `secrets.env` becomes visible — the step's patch lists it as added,
 * and the revert used to delete it (gone for good after the next message). Real service, real snapshot store,
 * turns driven by scripted calls; the files are checked on disk.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, scripted } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const bash = (callId: string, command: string) => ({ callId, toolName: 'bash', input: { command } });
const write = (callId: string, filePath: string, content: string) => ({
  callId,
  toolName: 'write',
  input: { filePath, content },
});
const file = (x: Harness, p: string): string | undefined =>
  existsSync(path.join(x.root, p)) ? readFileSync(path.join(x.root, p), 'utf8') : undefined;

async function withBash(): Promise<Harness> {
  const x = await harness();
  const saved = await x.svc.saveSettings({
    ...x.svc.getSettings(),
    permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
  });
  expect(saved.ok).toBe(true);
  return x;
}

describe('revert keeps files no snapshot captured', () => {
  it('bash un-ignores secrets.env: the patch lists it, the revert keeps it (not_captured), the next message too', async () => {
    h = await withBash();
    writeFileSync(path.join(h.root, '.gitignore'), 'secrets.env\n');
    writeFileSync(path.join(h.root, 'secrets.env'), 'API_KEY=only-copy\n');
    const s = h.newSession();
    const model = scripted([[bash('b', "printf '' > .gitignore"), write('w', 'new.txt', 'agent file\n')], []]);
    const t = await h.svc.runWithModel(s, model, 'clean up the ignore file');
    if (!t.ok) throw new Error(t.error.message);
    const patched = h.svc.store
      .messages(s)
      .flatMap((m) => m.parts)
      .flatMap((p) => (p.type === 'patch' ? p.files : []));
    expect([...new Set(patched)].sort()).toEqual(['.gitignore', 'new.txt', 'secrets.env']);
    const preview = await h.svc.revert(s, t.value.userMessageId, undefined, { preview: true });
    // force overwrites files the user changed — never one whose bytes are in no snapshot
    const r = await h.svc.revert(s, t.value.userMessageId, undefined, { force: true });
    if (!r.ok || !preview.ok) throw new Error('revert failed');
    expect(r.value.deleted).toEqual(['new.txt']);
    expect(r.value.restored).toEqual(['.gitignore']);
    expect(r.value.skipped).toEqual(['secrets.env']);
    expect(r.value.conflicts).toEqual([{ path: 'secrets.env', reason: 'not_captured' }]);
    expect(preview.value.conflicts).toEqual(r.value.conflicts);
    expect(file(h, 'secrets.env')).toBe('API_KEY=only-copy\n');
    expect(file(h, '.gitignore')).toBe('secrets.env\n');
    await h.svc.runWithModel(s, model, 'next message');
    expect(file(h, 'secrets.env')).toBe('API_KEY=only-copy\n');
  });

  it('bash ignores a file and changes it: the revert does not overwrite the bytes no snapshot holds', async () => {
    h = await withBash();
    writeFileSync(path.join(h.root, 'notes.txt'), 'v1\n');
    const s = h.newSession();
    const model = scripted([[bash('b', "echo notes.txt > .gitignore && echo 'v2 only here' > notes.txt")]]);
    const t = await h.svc.runWithModel(s, model, 'hide the notes');
    if (!t.ok) throw new Error(t.error.message);
    const r = await h.svc.revert(s, t.value.userMessageId);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.conflicts).toEqual([{ path: 'notes.txt', reason: 'not_captured' }]);
    expect(r.value.deleted).toEqual(['.gitignore']);
    expect(file(h, 'notes.txt')).toBe('v2 only here\n');
  });
});
