/**
 * Two processes' worth of services on one data folder (two AgentService instances on the same SQLite file): what
 * one stores reaches the other's follower in sequence order — a new session, its messages, a rename — and the
 * follower never hands on its own process's events (each event arrives exactly once); a turn a real other
 * process runs is handed on as `session.state` busy, then idle when that process is gone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import { AgentService } from '../agent/service';
import { cleanupTemp, tempDir, untilAborted } from '../agent/testing/fixtures';
import { CRASH_CHILD } from '../agent/testing/run-and-kill';
import { followEventLog } from './event-follow';
import type { EventFollower } from './event-follow';

const open: { svc: AgentService[]; followers: EventFollower[]; dirs: string[] } = { svc: [], followers: [], dirs: [] };
afterEach(async () => {
  for (const f of open.followers.splice(0)) f.close();
  for (const s of open.svc.splice(0)) await s.close();
  cleanupTemp(...open.dirs.splice(0));
});

async function service(dataDir: string): Promise<AgentService> {
  const r = await AgentService.open({ dataDir });
  if (!r.ok) throw new Error(r.error.message);
  open.svc.push(r.value);
  return r.value;
}

describe('following the event log', () => {
  it("one window sees the other's new session, message and rename, once each and in order", async () => {
    const dataDir = tempDir('follow-data');
    const root = tempDir('follow-proj');
    open.dirs.push(dataDir, root);
    const a = await service(dataDir);
    const b = await service(dataDir);
    const follower = followEventLog(path.join(dataDir, 'landfall.db'), (l) => a.on(l), 60_000);
    open.followers.push(follower);
    const seen: CoreEvent[] = [];
    follower.on((e) => seen.push(e));
    const own: CoreEvent[] = [];
    a.on((e) => own.push(e));

    const projectA = await a.openProject(root);
    expect(projectA.ok).toBe(true);
    const projectB = await b.openProject(root);
    if (!projectB.ok) throw new Error(projectB.error.message);
    const created = b.createSession(projectB.value.id, 'from window B');
    if (!created.ok) throw new Error(created.error.message);
    b.renameSession(created.value.id, 'renamed in B');
    const mine = a.createSession(projectB.value.id, 'from window A');
    expect(mine.ok).toBe(true);

    follower.poll();
    const sessions = seen.flatMap((e) => (e.type === 'session.updated' ? [e.session.title] : []));
    expect(sessions).toEqual(['from window B', 'renamed in B']);
    const seqs = seen.map((e) => ('seq' in e ? e.seq : 0));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    // A's own session is A's own event, never handed on again by the follower.
    expect(own.some((e) => e.type === 'session.updated' && e.session.title === 'from window A')).toBe(true);
    expect(seen.some((e) => e.type === 'session.updated' && e.session.title === 'from window A')).toBe(false);
    expect(follower.poll()).toBe(0);
  });
});

describe('turns another process runs', () => {
  it('a real turn in another process is handed on as busy, and as idle once that process is gone', async () => {
    const dataDir = tempDir('follow-run-data');
    const root = tempDir('follow-run-proj');
    open.dirs.push(dataDir, root);
    const a = await service(dataDir);
    const follower = followEventLog(path.join(dataDir, 'landfall.db'), (l) => a.on(l), 60_000);
    open.followers.push(follower);
    const states: string[] = [];
    follower.on((e) => {
      if (e.type === 'session.state') states.push(`${e.sessionId}:${e.state}`);
    });
    // crash-child.ts `step`: another process opens the same data folder and runs a turn that never ends
    const child = spawn(process.execPath, ['--import', 'tsx', CRASH_CHILD, dataDir, root, 'step'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
      child.on('exit', () => reject(new Error('the child ended before its turn ran')));
    });
    try {
      await ready;
      follower.poll();
      const running = a.runningTurns();
      expect(running).toHaveLength(1);
      const id = running[0]?.sessionId as string;
      expect(running[0]?.elsewhere).toBe(true);
      expect(states).toEqual([`${id}:busy`]);
      expect(follower.poll()).toBe(0);
      expect(states).toEqual([`${id}:busy`]);
      // this process may not start a turn, move history, rename or delete it meanwhile
      const second = await a.startTurn(id, 'me too', { languageModel: untilAborted() });
      expect(second).toMatchObject({
        ok: false,
        error: { code: 'busy', message: expect.stringMatching(/another window/) },
      });
      expect(a.deleteSession(id)).toMatchObject({ ok: false, error: { code: 'busy' } });
      expect(a.renameSession(id, 'x')).toMatchObject({ ok: false, error: { code: 'busy' } });
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
      follower.poll();
      expect(states).toEqual([`${id}:busy`, `${id}:idle`]);
      expect(a.runningTurns()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
