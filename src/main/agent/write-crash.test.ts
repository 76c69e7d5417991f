/**
 * Crash atomicity across files (hostile input): a real child process moves 40 files from one version to the next
 * — one apply_patch, or one snapshot revert — again and again, and is SIGKILLed at a random moment. Then the next
 * open recovers: AgentService.open for the patch (the service's tools journal in `<dataDir>/journal`), the
 * snapshot store's open for the revert (the project runtime). Held when every file holds the same version (all
 * old or all new across the set) and no temp file is left in the project. Prints runs / held and the seed.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../snapshot/store';
import { AgentService } from './service';
import { childArgs } from '../proc/test-child';
import { cleanupTemp, tempDir } from './testing/fixtures';

const FILES = 40;
const RUNS = Number(process.env.LANDFALL_CRASH_RUNS ?? 10);
const CHILD = fileURLToPath(new URL('./testing/write-crash-child.ts', import.meta.url));
const names = Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
const seed = Number(process.env.LANDFALL_CRASH_SEED ?? Date.now() % 100_000);
let rand = seed;
/** A deterministic generator from the printed seed (so a failing run can be repeated). */
const random = (): number => (rand = (Math.imul(rand, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const lines: string[] = [];
afterAll(() => console.log(`write crash (seed ${seed}): ${lines.join('; ')}`));

/** Resolves when `file` no longer holds `before` (the first rename of an operation landed), polled without a clock. */
async function whenChanged(file: string, before: string, stop: () => boolean): Promise<void> {
  while (!stop()) {
    try {
      if (readFileSync(file, 'utf8') !== before) return;
    } catch {
      // between a removal and a rename: look again
    }
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * Start the child; once one operation is done (its duration known), SIGKILL it after a random share of that
 * duration (up to 1.5×, so kills land anywhere in an operation, between two, or in the next one's planning).
 * With `amidRenames`, the kill comes instead 0–2 ms after the first file of the next operation changed: in the
 * renames, the phase where files change, short next to reading and staging, which random times alone rarely hit.
 */
async function killSomewhere(mode: string, root: string, dataDir: string, amidRenames: boolean): Promise<number> {
  const child = spawn(process.execPath, await childArgs(CHILD, [mode, root, dataDir, String(FILES)]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((resolve, reject) => {
    let armed = false;
    child.stdout.on('data', (b: Buffer) => {
      const m = /done (\d+)/.exec(b.toString());
      if (!m || armed) return;
      armed = true;
      if (amidRenames) {
        const wait = random() * 2;
        const first = path.join(root, names[0] as string);
        const ended = (): boolean => child.exitCode !== null || child.signalCode !== null;
        void whenChanged(first, readFileSync(first, 'utf8'), ended).then(() =>
          setTimeout(() => child.kill('SIGKILL'), wait),
        );
        return;
      }
      const delay = Math.round(random() * 1.5 * Math.max(Number(m[1]), 5));
      setTimeout(() => child.kill('SIGKILL'), delay);
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(0) : reject(new Error(`child ended by itself: ${err.slice(0, 500)}`)),
    );
  });
}

/** One version for all files, and no temp file: the run held. */
function judge(root: string): { held: boolean; versions: string[]; temps: string[] } {
  const all = readdirSync(root);
  const temps = all.filter((n) => n.includes('.landfall-tmp-') || n.includes('.landfall-rollback'));
  const versions = [...new Set(names.map((n) => readFileSync(path.join(root, n), 'utf8')))];
  return { held: versions.length === 1 && temps.length === 0, versions, temps };
}

describe('a kill during a multi-file write leaves all old or all new after recovery (runs / held)', () => {
  it(`40-file apply_patch, SIGKILL at random points, recovered by AgentService.open (${RUNS} runs)`, async () => {
    let held = 0;
    const outcomes: Record<string, number> = {};
    for (let run = 0; run < RUNS; run++) {
      const root = tempDir('crash-patch');
      const dataDir = tempDir('crash-data');
      try {
        for (const n of names) writeFileSync(path.join(root, n), 'version 0\n');
        await killSomewhere('patch', root, dataDir, run % 2 === 1);
        const opened = await AgentService.open({ dataDir });
        if (!opened.ok) throw new Error(opened.error.message);
        for (const r of opened.value.recovered) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
        await opened.value.close();
        const j = judge(root);
        if (j.held) held++;
        else console.log(`patch run ${run}: versions ${j.versions.join(' | ')}; temps ${j.temps.join(', ')}`);
      } finally {
        cleanupTemp(root, dataDir);
      }
    }
    lines.push(`apply_patch ${RUNS} runs / ${held} held (recovery: ${JSON.stringify(outcomes)})`);
    expect(held).toBe(RUNS);
  }, 120_000);

  it(`40-file snapshot revert, SIGKILL at random points, recovered by the store's open (${RUNS} runs)`, async () => {
    let held = 0;
    const outcomes: Record<string, number> = {};
    for (let run = 0; run < RUNS; run++) {
      const root = tempDir('crash-revert');
      const dataDir = tempDir('crash-data');
      try {
        const store = await SnapshotStore.open({ worktree: root, dataDir, log: () => undefined });
        for (const n of names) writeFileSync(path.join(root, n), `tree A ${'a'.repeat(20_000)}\n`);
        const a = await store.track();
        for (const n of names) writeFileSync(path.join(root, n), `tree B ${'b'.repeat(20_000)}\n`);
        const b = await store.track();
        await store.close();
        writeFileSync(path.join(dataDir, 'trees.json'), JSON.stringify([a, b]));
        await killSomewhere('revert', root, dataDir, run % 2 === 1);
        const reopened = await SnapshotStore.open({
          worktree: root,
          dataDir,
          log: (line) => {
            const m = /interrupted and (rolled back|had completed|had not started)/.exec(line);
            if (m) outcomes[m[1] as string] = (outcomes[m[1] as string] ?? 0) + 1;
          },
        });
        await reopened.close();
        const j = judge(root);
        if (j.held) held++;
        else
          console.log(
            `revert run ${run}: versions ${j.versions.map((v) => v.slice(0, 6)).join(' | ')}; temps ${j.temps.join(', ')}`,
          );
      } finally {
        cleanupTemp(root, dataDir);
      }
    }
    lines.push(`snapshot revert ${RUNS} runs / ${held} held (recovery: ${JSON.stringify(outcomes)})`);
    expect(held).toBe(RUNS);
  }, 120_000);
});
