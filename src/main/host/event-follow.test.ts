/**
 * Two processes' worth of services on one data folder (two AgentService instances on the same SQLite file): what
 * one stores reaches the other's follower in sequence order — a new session, its messages, a rename — and the
 * follower never hands on its own process's events (each event arrives exactly once).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import { AgentService } from '../agent/service';
import { cleanupTemp, tempDir } from '../agent/testing/fixtures';
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
