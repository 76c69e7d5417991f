/**
 * Symlink-swap races (hostile input): while a tool runs, a worker thread swaps the folder `dir` for a symlink to
 * a folder outside the project and back, as fast as it can. Whatever the interleaving, no tool may return the
 * outside file's bytes (read, grep) or change anything outside the project (write, edit, apply_patch, snapshot
 * revert). Each tool gets a bounded number of tries; attempts / held are printed (held = tries that neither read
 * nor wrote outside), and the goal is every try held.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservedVersions } from '../fs/observed';
import { stampOf } from '../fs/stamp';
import { SnapshotStore } from '../snapshot/store';
import { applyPatchTool } from './apply-patch';
import { editTool } from './edit';
import { grepTool } from './grep';
import { readTool } from './read';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { writeTool } from './write';

/** Tries per tool (LANDFALL_RACE_TRIES overrides it, e.g. 900 to measure a build that does not hold). */
const TRIES = Number(process.env.LANDFALL_RACE_TRIES ?? 300);
const SECRET = 'OUTSIDE SECRET';
const INSIDE = 'inside line\n';

/**
 * The swapper: renames <root>/dir away, puts a symlink to <outside> in its place, and back, in a loop. Control
 * word 0: 0 run, 1 pause (the worker puts the real folder back, sets word 1 to 1 and waits), 2 stop; word 2
 * counts swaps (a resumed worker is only trusted to run once it has swapped again); word 3 stays 0 (long holds wait
 * on it).
 */
const SWAPPER = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const ctl = new Int32Array(workerData.ctl);
const { dir, moved, outside } = workerData;
const link = dir + '.link';
const ino = fs.lstatSync(dir).ino;
const lstat = (p) => { try { return fs.lstatSync(p); } catch { return undefined; } };
// Back to: the real folder at dir, the link at dir.link. A tool that created a folder at dir while it was
// missing made a stray one: it goes (it lies inside the project and holds only what the tool wrote).
const restore = () => {
  const st = lstat(dir);
  if (st && st.isSymbolicLink()) fs.renameSync(dir, link);
  else if (st && st.ino !== ino) fs.rmSync(dir, { recursive: true, force: true });
  if (lstat(moved)) fs.renameSync(moved, dir);
  if (!lstat(link)) fs.symlinkSync(outside, link);
};
const tryRestore = () => { try { restore(); return true; } catch { return false; } };
const settle = () => { while (!tryRestore()); };
settle();
// Hold a state for 1 µs to 2 ms (log-uniform), so windows of every length in the tools are met. Holds under
// 0.2 ms spin (a timed wait is not that fine); longer ones sleep on word 3 (never notified), leaving the core to
// the tool and the rest of the machine.
const hold = () => {
  const ms = Math.exp(Math.random() * 7.6) / 1000;
  if (ms >= 0.2) return void Atomics.wait(ctl, 3, 0, ms);
  for (const until = performance.now() + ms; performance.now() < until; );
};
for (;;) {
  const c = Atomics.load(ctl, 0);
  if (c === 2) { settle(); try { fs.unlinkSync(link); } catch {} Atomics.store(ctl, 1, 1); break; }
  if (c === 1) { settle(); Atomics.store(ctl, 1, 1); Atomics.wait(ctl, 0, 1); Atomics.store(ctl, 1, 0); continue; }
  try { fs.renameSync(dir, moved); fs.renameSync(link, dir); } catch {}
  hold();
  tryRestore();
  hold();
  Atomics.add(ctl, 2, 1);
}
`;

class Swapper {
  private readonly ctl = new Int32Array(new SharedArrayBuffer(16));
  private readonly worker: Worker;
  constructor(dir: string, moved: string, outside: string) {
    this.ctl[0] = 1; // start paused
    this.worker = new Worker(SWAPPER, { eval: true, workerData: { ctl: this.ctl.buffer, dir, moved, outside } });
  }
  /** Resolves once the real folder is back in place and the worker waits. */
  async pause(): Promise<void> {
    Atomics.store(this.ctl, 0, 1);
    while (Atomics.load(this.ctl, 1) !== 1) await new Promise((r) => setImmediate(r));
  }
  /** Resolves once the worker is swapping again (a woken thread may take milliseconds to be scheduled). */
  async resume(): Promise<void> {
    const before = Atomics.load(this.ctl, 2);
    Atomics.store(this.ctl, 1, 0);
    Atomics.store(this.ctl, 0, 0);
    Atomics.notify(this.ctl, 0);
    while (Atomics.load(this.ctl, 2) < before + 2) await new Promise((r) => setImmediate(r));
  }
  async stop(): Promise<void> {
    Atomics.store(this.ctl, 0, 2);
    Atomics.notify(this.ctl, 0);
    await this.worker.terminate().catch(() => undefined);
  }
}

let outer: string;
let root: string;
let outside: string;
let swapper: Swapper;
const counts: string[] = [];

beforeAll(() => {
  outer = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-race-')));
  root = path.join(outer, 'ws');
  outside = path.join(outer, 'outside');
  mkdirSync(path.join(root, 'dir'), { recursive: true });
  mkdirSync(outside);
  swapper = new Swapper(path.join(root, 'dir'), path.join(outer, 'dir-moved'), outside);
});
afterAll(async () => {
  await swapper.stop();
  console.log(`symlink-swap races (attempts / held):\n  ${counts.join('\n  ')}`);
  rmSync(outer, { recursive: true, force: true });
});

/** Puts the outside folder back to one secret file; true when anything there had changed. */
function outsideChanged(): boolean {
  const names = readdirSync(outside);
  const secret = path.join(outside, 'f.txt');
  const same = names.length === 1 && names[0] === 'f.txt' && readFileSync(secret, 'utf8') === `${SECRET}\n`;
  if (!same) {
    rmSync(outside, { recursive: true, force: true });
    mkdirSync(outside);
  }
  writeFileSync(secret, `${SECRET}\n`);
  return !same;
}

function context(): ToolContext {
  return {
    root,
    sessionId: 'race',
    observed: new ObservedVersions(),
    scratchDir: path.join(outer, 'scratch'),
    journalDir: path.join(outer, 'journal'),
  };
}

/** The inside file back to INSIDE, recorded as what the session saw (the swapper is paused). */
function resetInside(ctx: ToolContext): void {
  const file = path.join(root, 'dir', 'f.txt');
  writeFileSync(file, INSIDE);
  ctx.observed.record(ctx.sessionId, file, stampOf(Buffer.from(INSIDE), { size: INSIDE.length, mtimeMs: 0 }));
}

/**
 * Runs `attempt` TRIES times with the swapper running (`prepare` first, while it is paused); an attempt escaped
 * when `leaked(result)` says it showed the secret, or the outside folder changed. Returns how many held.
 */
async function race<T>(
  name: string,
  prepare: (i: number) => void,
  attempt: (i: number) => Promise<T>,
  leaked: (r: T) => boolean,
): Promise<number> {
  let held = 0;
  let threw = 0;
  outsideChanged();
  for (let i = 0; i < TRIES; i++) {
    prepare(i);
    await swapper.resume();
    let r: T | undefined;
    try {
      r = await attempt(i);
    } catch {
      threw++; // not a leak, but a tool must answer an outcome: counted and asserted below
    } finally {
      await swapper.pause();
    }
    const escaped = (r !== undefined && leaked(r)) || outsideChanged();
    if (!escaped) held++;
  }
  counts.push(`${name}: ${TRIES} / ${held}${threw > 0 ? ` (${threw} threw instead of answering)` : ''}`);
  expect(threw).toBe(0);
  return held;
}

const run = <I>(tool: ToolDefinition<I>, input: I, ctx: ToolContext): Promise<ToolOutcome> =>
  tool.execute(tool.input.parse(input), ctx);
const shows = (o: ToolOutcome): boolean => (o.ok ? o.output : o.output).includes(SECRET);

const never = (): boolean => false;

describe('a folder swapped for an outward symlink while the tool runs', () => {
  it('read never returns the outside file', async () => {
    const ctx = context();
    const read = (): Promise<ToolOutcome> => run(readTool, { filePath: 'dir/f.txt' }, ctx);
    expect(await race('read', () => resetInside(ctx), read, shows)).toBe(TRIES);
  }, 180_000);

  it('grep never searches the outside file', async () => {
    const ctx = context();
    const grep = (): Promise<ToolOutcome> => run(grepTool, { pattern: 'SECRET|inside' }, ctx);
    expect(await race('grep', () => resetInside(ctx), grep, shows)).toBe(TRIES);
  }, 180_000);

  it('write never writes outside', async () => {
    const ctx = context();
    const write = (i: number): Promise<ToolOutcome> =>
      run(writeTool, { filePath: 'dir/f.txt', content: `written ${i}\n` }, ctx);
    expect(await race('write', () => resetInside(ctx), write, never)).toBe(TRIES);
  }, 180_000);

  it('edit never writes outside', async () => {
    const ctx = context();
    const edit = (): Promise<ToolOutcome> =>
      run(editTool, { filePath: 'dir/f.txt', oldString: 'inside line', newString: 'edited line' }, ctx);
    expect(await race('edit', () => resetInside(ctx), edit, never)).toBe(TRIES);
  }, 180_000);

  it('apply_patch never writes outside', async () => {
    const ctx = context();
    const patchText = '*** Begin Patch\n*** Update File: dir/f.txt\n@@\n-inside line\n+patched line\n*** End Patch';
    const apply = (): Promise<ToolOutcome> => run(applyPatchTool, { patchText }, ctx);
    expect(await race('apply_patch', () => resetInside(ctx), apply, never)).toBe(TRIES);
  }, 180_000);

  it('snapshot revert never writes outside (20 files of the swapped folder per revert)', async () => {
    const files = Array.from({ length: 20 }, (_, i) => `dir/g${i}.txt`);
    const put = (text: string): void => {
      for (const f of files) writeFileSync(path.join(root, f), text);
    };
    put('snapshot version\n');
    const store = await SnapshotStore.open({ worktree: root, dataDir: path.join(outer, 'data'), log: () => undefined });
    try {
      const tree = await store.track();
      const revert = () => store.revert([{ hash: tree, files }]);
      expect(await race('snapshot revert', () => put(INSIDE), revert, never)).toBe(TRIES);
    } finally {
      await store.close();
    }
  }, 120_000);
});
