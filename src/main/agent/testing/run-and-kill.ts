/**
 * Test support: run a crash child (crash-child.ts) from its bundle (proc/test-child.ts) and SIGKILL it the moment it prints READY — an event,
 * not a clock. Resolves once the child is dead by the signal; rejects when it exits by itself or never gets ready.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { childArgs } from '../../proc/test-child';

export const CRASH_CHILD = path.resolve(process.cwd(), 'src/main/agent/testing/crash-child.ts');

/** Spawn `script` with `args`, kill it with SIGKILL at READY. */
export async function runAndKill(args: string[], script = CRASH_CHILD): Promise<void> {
  const argv = await childArgs(script, args);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    // a guard against a child that hangs before READY (a broken test), not a wait on timing
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child never got ready in 60 s; its stderr:\n${err}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) child.kill('SIGKILL');
    });
    // 'close', not 'exit': it comes after stderr is drained, so a child's last words are in `err`
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve();
      else
        reject(
          new Error(`child exited by itself (code ${code}, signal ${signal}); its stdout: ${out}; its stderr:\n${err}`),
        );
    });
  });
}
