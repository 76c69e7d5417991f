/**
 * A bash command's processes are never found by the leader's bare pid (process-session.ts): after the leader has
 * exited and been reaped, that pid may be reused by any program of the user, which a stop or the end-of-command
 * sweep would then kill. Simulated with a live process that holds the pid but neither the command's session, group,
 * tags nor ancestry: commandProcesses does not list it, and it outlives endCommand.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandProcesses, createRunTag, endCommand, releaseRunTag } from './process-session';

describe.runIf(existsSync('/proc/self/stat'))('a reused leader pid', () => {
  it('is not the command’s: not listed, not signalled', async () => {
    const other = spawn('sleep', ['30'], { stdio: 'ignore' }); // this test's session and group, no tags
    await once(other, 'spawn');
    const tag = createRunTag();
    const ended = once(other, 'exit');
    try {
      expect(commandProcesses(other.pid as number, tag)).toEqual([]);
      expect(await endCommand(other.pid as number, tag, 'SIGKILL')).toBe(0);
    } finally {
      releaseRunTag(tag);
      other.kill('SIGTERM');
    }
    const [code, signal] = (await ended) as [number | null, NodeJS.Signals | null];
    expect([code, signal]).toEqual([null, 'SIGTERM']); // what ended it was this test's SIGTERM, not the sweep
  });
});
