/**
 * Crash: a child process runs a real session and is killed with SIGKILL during a tool call and during a model
 * step. On restart: the running tool part is `error: interrupted` (never re-run), streamed text saved so far is
 * kept, foreign keys hold, the event log's sequence has no gaps, and the snapshot store opens and tracks.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../session/store';
import { SnapshotStore } from '../snapshot/store';
import { runAndKill } from './testing/run-and-kill';
import { cleanupTemp, tempDir } from './testing/fixtures';

function checkStore(dataDir: string): SessionStore {
  const store = SessionStore.open(path.join(dataDir, 'landfall.db'));
  expect(store.db.pragma('foreign_key_check')).toEqual([]);
  expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  const seqs = (store.db.prepare('SELECT seq FROM events ORDER BY seq').all() as { seq: number }[]).map((r) => r.seq);
  expect(seqs.length).toBeGreaterThan(3);
  expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  expect(store.db.prepare("SELECT count(*) AS n FROM parts WHERE state IN ('pending','running')").get()).toEqual({
    n: 0,
  });
  return store;
}

async function checkSnapshots(dataDir: string, root: string, projectId: string): Promise<void> {
  const snap = await SnapshotStore.open({ worktree: root, dataDir, projectId });
  expect(await snap.track()).toMatch(/^[0-9a-f]{40}$/);
  await snap.close();
}

describe('crash recovery (SIGKILL)', () => {
  it('during a tool call: the part becomes error: interrupted, the store is whole', async () => {
    const dataDir = tempDir('crash-data');
    const root = tempDir('crash-proj');
    try {
      await runAndKill([dataDir, root, 'tool']);
      const store = checkStore(dataDir);
      const session = store.listProjects().flatMap((p) => store.listSessions(p.id))[0];
      const parts = store.messages(session?.id as string).flatMap((m) => m.parts);
      const bash = parts.find((p) => p.type === 'tool' && p.tool === 'bash');
      expect(bash?.type === 'tool' && bash.state).toBe('error');
      expect(bash?.type === 'tool' && bash.error?.code).toBe('interrupted');
      const write = parts.find((p) => p.type === 'tool' && p.tool === 'write');
      expect(write?.type === 'tool' && write.state).toBe('completed');
      const last = store.db.prepare('SELECT type, data FROM events ORDER BY seq DESC LIMIT 1').get() as {
        type: string;
        data: string;
      };
      expect(last.type).toBe('part.updated');
      expect(JSON.parse(last.data).part.error.code).toBe('interrupted');
      // a second start finds nothing left to recover
      expect(store.recoverInterrupted()).toBe(0);
      store.close();
      await checkSnapshots(dataDir, root, session?.projectId as string);
    } finally {
      cleanupTemp(dataDir, root);
    }
  }, 60_000);

  it('during a model step: the streamed text so far is kept, the store is whole', async () => {
    const dataDir = tempDir('crash-data');
    const root = tempDir('crash-proj');
    try {
      await runAndKill([dataDir, root, 'step']);
      const store = checkStore(dataDir);
      const session = store.listProjects().flatMap((p) => store.listSessions(p.id))[0];
      const parts = store.messages(session?.id as string).flatMap((m) => m.parts);
      expect(parts.map((p) => p.type)).toEqual(['text', 'step-start', 'text']);
      const text = parts[2];
      expect(text?.type === 'text' && text.text).toBe('I will now look at the file');
      store.close();
      await checkSnapshots(dataDir, root, session?.projectId as string);
    } finally {
      cleanupTemp(dataDir, root);
    }
  }, 60_000);
});
