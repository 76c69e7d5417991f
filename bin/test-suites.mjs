#!/usr/bin/env node
// Runs the vitest suite and the end-to-end suite side by side (`npm run test:suites`, the last part of `npm test`)
// and exits non-zero when either fails. The end-to-end suite spends most of its time waiting on its browser and
// the web host (about 0.75 of one core over a run) while the vitest suite keeps two forks busy: run one after
// the other they took ~9 + ~7 minutes on a 2-core machine, side by side the end-to-end suite fits in what the
// vitest suite leaves idle. The vitest suite's output streams as it comes; the end-to-end suite's is written to
// test-results/e2e.log and printed whole when both have ended, so the two never interleave.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const log = path.join(root, 'test-results', 'e2e.log');
mkdirSync(path.dirname(log), { recursive: true });

const children = new Set();
// Stopped from outside (a CI timeout, kill, Ctrl-C): each suite runs in its own process group, and the whole
// group gets the same signal — npm does not pass it on to the vitest processes under it.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'])
  process.on(sig, () => {
    for (const c of children) {
      try {
        process.kill(-c.pid, sig);
      } catch {
        // the group is gone already
      }
    }
    process.exit(1);
  });

/** Runs `npm run <script>`; resolves with its exit code (1 when it was ended by a signal). */
function run(script, output) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: root,
      stdio: ['ignore', output ?? 'inherit', output ?? 'inherit'],
      detached: true,
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

const fd = openSync(log, 'w');
const [unit, e2e] = await Promise.all([run('test:unit'), run('test:e2e', fd)]);
closeSync(fd);
console.log(`\n---- end-to-end suite (${path.relative(root, log)}) ----`);
process.stdout.write(readFileSync(log));
console.log(
  `\nvitest suite: ${unit === 0 ? 'passed' : `failed (${unit})`}; end-to-end suite: ${e2e === 0 ? 'passed' : `failed (${e2e})`}`,
);
process.exit(unit === 0 && e2e === 0 ? 0 : 1);
