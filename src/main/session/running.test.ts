/**
 * Running turns recorded in the database (running.ts) on a real SQLite file: a turn of this process is recorded
 * from admission to its end; a row of another live process counts as running `elsewhere`; a row whose process is
 * gone counts as not running and is removed when the database is opened again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTemp, harness, tempDir, untilAborted } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';
import { clearStaleTurns, markEnded, markRunning, runningTurns } from './running';
import { SessionStore } from './store';

const dirs: string[] = [];
const children: ChildProcess[] = [];
let h: Harness | undefined;
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await h?.close();
  h = undefined;
  cleanupTemp(...dirs.splice(0));
});

/** A live process of another pid (a `sleep` that the test ends). */
function otherProcess(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve()),
  );
}

describe('running turns', () => {
  it('a turn of this process is recorded from its admission to its end, with when it started', async () => {
    h = await harness();
    const id = h.newSession();
    const before = Date.now();
    const started = await h.svc.startTurn(id, 'go', { languageModel: untilAborted() });
    if (!started.ok) throw new Error(started.error.message);
    const during = h.svc.runningTurns();
    expect(during).toEqual([{ sessionId: id, since: expect.any(Number), elsewhere: false }]);
    expect(during[0]?.since).toBeGreaterThanOrEqual(before);
    h.svc.stop(id);
    await started.value.turn.done;
    expect(h.svc.runningTurns()).toEqual([]);
  });

  it("another live process's turn counts as running elsewhere; once that process is gone it does not, and the next open removes it", async () => {
    const dir = tempDir('running');
    dirs.push(dir);
    const file = path.join(dir, 'landfall.db');
    const store = SessionStore.open(file);
    const project = store.upsertProject('/p', 'p');
    const a = store.createSession(project.id, 'mine');
    const b = store.createSession(project.id, 'theirs');
    markRunning(store.db, a.id, 1000);
    const other = otherProcess();
    store.db.prepare('INSERT INTO running_turns (session_id, pid, since) VALUES (?, ?, ?)').run(b.id, other.pid, 2000);
    expect(runningTurns(store.db)).toEqual([
      { sessionId: a.id, since: 1000, elsewhere: false },
      { sessionId: b.id, since: 2000, elsewhere: true },
    ]);
    // this process ends only its own record
    markEnded(store.db, b.id);
    expect(runningTurns(store.db).map((t) => t.sessionId)).toEqual([a.id, b.id]);
    other.kill('SIGKILL');
    await exited(other);
    expect(runningTurns(store.db).map((t) => t.sessionId)).toEqual([a.id]);
    // at open, rows of gone processes and of this very pid (no turn of a new process runs yet) are stale
    expect(clearStaleTurns(store.db)).toBe(2);
    expect(runningTurns(store.db)).toEqual([]);
    store.close();
  });
});
