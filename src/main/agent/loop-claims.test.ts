/**
 * What a step's patch part claims, and what it costs the snapshot store (loop.ts `claimedFiles`), on a real
 * service, store and tools driven by scripted calls. Claims come from the tree diff of the step's before and
 * after snapshots (`changed`): a reported write claims its file only when the bytes differ (a write of the same
 * bytes claims nothing); after bash, every path that differs — added, deleted, executable bit — is claimed. No
 * file is read from the store (today's rule read two blobs per written file) and the work tree is not walked a
 * second time after bash (no `patch`).
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnapshotStore } from '../snapshot/store';
import { harness, scripted, type Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const write = (callId: string, filePath: string, content: string) => ({
  callId,
  toolName: 'write',
  input: { filePath, content },
});
const read = (callId: string, filePath: string) => ({ callId, toolName: 'read', input: { filePath } });
const bash = (callId: string, command: string) => ({ callId, toolName: 'bash', input: { command } });

/** Counts calls of the real store's methods (the store still runs them). */
function countStoreCalls(): Record<'readFile' | 'patch' | 'changed' | 'track', { mock: { calls: unknown[] } }> {
  return {
    readFile: vi.spyOn(SnapshotStore.prototype, 'readFile'),
    patch: vi.spyOn(SnapshotStore.prototype, 'patch'),
    changed: vi.spyOn(SnapshotStore.prototype, 'changed'),
    track: vi.spyOn(SnapshotStore.prototype, 'track'),
  };
}

/** The files of the patch parts of the session's last assistant message, per part. */
function patchFiles(x: Harness, session: string): string[][] {
  const v = x.svc.getSession(session);
  if (!v.ok) throw new Error(v.error.message);
  const last = v.value.messages[v.value.messages.length - 1];
  return (last?.parts ?? []).flatMap((p) => (p.type === 'patch' ? [p.files] : []));
}

describe('patch part claims from the tree diff', () => {
  it('reported writes claim only files whose bytes changed, in the tools order; no blob is read', async () => {
    h = await harness();
    writeFileSync(path.join(h.root, 'same.txt'), 'same\n');
    writeFileSync(path.join(h.root, 'old.txt'), 'old\n');
    const s = h.newSession();
    const calls = countStoreCalls();
    const r = await h.svc.runWithModel(
      s,
      scripted([
        [
          read('r1', 'same.txt'),
          read('r2', 'old.txt'),
          write('w1', 'z.txt', 'new\n'),
          write('w2', 'same.txt', 'same\n'),
          write('w3', 'old.txt', 'changed\n'),
        ],
      ]),
      'go',
    );
    expect(r.ok).toBe(true);
    const v = h.svc.getSession(s);
    const tools = v.ok ? (v.value.messages[1]?.parts ?? []).filter((p) => p.type === 'tool') : [];
    expect(tools.map((p) => p.type === 'tool' && [p.callId, p.state])).toEqual([
      ['r1', 'completed'],
      ['r2', 'completed'],
      ['w1', 'completed'],
      ['w2', 'completed'],
      ['w3', 'completed'],
    ]);
    // The replay model may split the calls over steps; over all of them, the same bytes claim nothing.
    const patches = patchFiles(h, s);
    expect(patches.flat()).toEqual(['z.txt', 'old.txt']);
    expect(calls.readFile.mock.calls).toHaveLength(0);
    expect(calls.patch.mock.calls).toHaveLength(0);
    expect(calls.changed.mock.calls.length).toBeGreaterThanOrEqual(patches.length);
  });

  it('after bash: every changed path is claimed (added, deleted, executable bit) from one walk', async () => {
    h = await harness();
    const s = h.newSession();
    const saved = await h.svc.saveSettings({
      ...h.svc.getSettings(),
      permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
    });
    expect(saved.ok).toBe(true);
    writeFileSync(path.join(h.root, 'gone.txt'), 'gone\n');
    writeFileSync(path.join(h.root, 'run.sh'), 'echo hi\n');
    chmodSync(path.join(h.root, 'run.sh'), 0o644);
    writeFileSync(path.join(h.root, 'kept.txt'), 'kept\n');
    const calls = countStoreCalls();
    const r = await h.svc.runWithModel(
      s,
      scripted([[bash('b', 'printf made > made.txt && rm gone.txt && chmod +x run.sh')]]),
      'go',
    );
    expect(r.ok).toBe(true);
    expect(patchFiles(h, s)).toEqual([['gone.txt', 'made.txt', 'run.sh']]);
    expect(calls.readFile.mock.calls).toHaveLength(0);
    expect(calls.patch.mock.calls).toHaveLength(0);
    expect(calls.changed.mock.calls).toHaveLength(1);
    // The step before the bash call walks the tree, the step after it walks it once more: no third walk.
    expect(calls.track.mock.calls.length).toBeLessThanOrEqual(3);
  });
});
