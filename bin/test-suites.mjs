#!/usr/bin/env node
// `npm test`: every check, in two lanes side by side, exiting non-zero when any check fails.
//   lane 1: the vitest suite (two forks), then the typecheck and lint; their output streams as it comes;
//   lane 2: the formatter check, then the end-to-end suite; their output goes to test-results/checks.log,
//           printed whole when both lanes have ended, so the two never interleave.
// Why two lanes: the end-to-end suite spends much of its time waiting on its browser and the web host, and the
// checks are one process each, while the vitest suite keeps two forks busy; one after the other they took ~1.5 +
// ~6 + ~4.5 minutes on a 2-core machine, side by side ~11. The checks are split so both lanes end about together.
// A failing check does not stop the others: one run reports every failure.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const log = path.join(root, 'test-results', 'checks.log');
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

/** Runs the scripts one after another, each to the end; resolves with [script, exit code] per script. */
async function lane(scripts, output) {
  const codes = [];
  for (const script of scripts) {
    if (output === undefined) console.log(`\n> npm run ${script}`);
    else writeSync(output, `\n> npm run ${script}\n`);
    codes.push([script, await run(script, output)]);
  }
  return codes;
}

const fd = openSync(log, 'w');
const results = (
  await Promise.all([lane(['test:unit', 'typecheck', 'lint']), lane(['format:check', 'test:e2e'], fd)])
).flat();
closeSync(fd);
console.log(`\n---- checks and end-to-end suite (${path.relative(root, log)}) ----`);
process.stdout.write(readFileSync(log));
console.log('');
for (const [script, code] of results) console.log(`${script}: ${code === 0 ? 'passed' : `failed (${code})`}`);
process.exit(results.every(([, code]) => code === 0) ? 0 : 1);
