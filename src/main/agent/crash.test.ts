/**
 * Crash: a child process runs a real session and is killed with SIGKILL during a tool call and during a model
 * step. On restart: the running tool part is `error: interrupted` (never re-run), streamed text saved so far is
 * kept, foreign keys hold, the event log's sequence has no gaps, and the snapshot store opens and tracks.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../session/store';
import { SnapshotStore } from '../snapshot/store';
import { childArgs } from '../proc/test-child';
import { cleanupTemp, tempDir } from './testing/fixtures';

const CHILD = path.resolve(process.cwd(), 'src/main/agent/testing/crash-child.ts');

async function runAndKill(dataDir: string, root: string, mode: 'tool' | 'step'): Promise<void> {
  const args = await childArgs(CHILD, [dataDir, root, mode]);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child never got ready: ${err}`));
    }, 30_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('READY')) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`child exited by itself: ${err}`));
    });
  });
}

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
      await runAndKill(dataDir, root, 'tool');
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
      await runAndKill(dataDir, root, 'step');
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
