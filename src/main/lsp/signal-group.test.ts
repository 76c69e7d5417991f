/**
 * signalGroup reaches process groups only (lsp/process.ts): once a server's leader has exited and been reaped, its
 * pid may belong to an unrelated program — a signal meant for the server must never reach it. Simulated with a
 * live process whose pid is not a group id (a plain child, in this test's group): signalGroup(pid) leaves it
 * alone, and the SIGTERM this test sends afterwards is what ends it. A detached child (a group leader, as every
 * server is) is killed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { signalGroup } from './process';

/** A `sleep` child that has started (its spawn event came). */
async function sleeper(detached: boolean): Promise<ReturnType<typeof spawn>> {
  const child = spawn('sleep', ['30'], { detached, stdio: 'ignore' });
  await once(child, 'spawn');
  return child;
}

describe('signalGroup', () => {
  it('never signals a process by its bare pid: a pid that is not a group id is left alone', async () => {
    const other = await sleeper(false);
    const ended = once(other, 'exit');
    signalGroup(other.pid as number, 'SIGKILL');
    other.kill('SIGTERM'); // had the SIGKILL reached it, it would have died of that, first
    const [code, signal] = (await ended) as [number | null, NodeJS.Signals | null];
    expect([code, signal]).toEqual([null, 'SIGTERM']);
  });

  it('signals the whole group of a detached leader', async () => {
    const leader = await sleeper(true);
    const ended = once(leader, 'exit');
    signalGroup(leader.pid as number, 'SIGKILL');
    const [code, signal] = (await ended) as [number | null, NodeJS.Signals | null];
    expect([code, signal]).toEqual([null, 'SIGKILL']);
  });
});
