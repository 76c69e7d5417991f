/**
 * Opening a project (snapshot stores in a worker thread, as in the app and the web host) starts its first track at
 * once — no session, no step — reported as one `first-track` operation of that project whose last report counts
 * every file and byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../shared/progress-schemas';
import { AgentService } from './service';
import { cleanupTemp, tempDir } from './testing/fixtures';

const dirs: string[] = [];
let svc: AgentService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  cleanupTemp(...dirs.splice(0));
});

/** A project of 1,500 files; answers its folder and total size. */
function project(): { root: string; bytes: number } {
  const root = tempDir('proj');
  dirs.push(root);
  let bytes = 0;
  for (let i = 0; i < 1500; i++) {
    mkdirSync(path.join(root, `m${i % 10}`), { recursive: true });
    const body = `line ${i}\n`.repeat(1 + (i % 30));
    writeFileSync(path.join(root, `m${i % 10}`, `f${i}.txt`), body);
    bytes += Buffer.byteLength(body);
  }
  return { root, bytes };
}

async function open(worker: boolean): Promise<AgentService> {
  const dataDir = tempDir('data');
  dirs.push(dataDir);
  const opened = await AgentService.open({ dataDir, ...(worker ? { snapshotWorker: true } : {}) });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

describe('first track on project open', () => {
  it('starts in the worker when the project is opened, reported as that project’s first-track', async () => {
    const { root, bytes } = project();
    svc = await open(true);
    const seen: ProgressEvent[] = [];
    const ended = new Promise<void>((resolve) =>
      svc!.on((e) => {
        if (e.type !== 'progress') return;
        seen.push(e);
        if (e.state === 'end') resolve();
      }),
    );
    const p = await svc.openProject(root);
    if (!p.ok) throw new Error(p.error.message);
    await ended; // no session created, no step run
    expect(svc.listSessions(p.value.id)).toEqual([]);
    expect(seen.every((e) => e.operation === 'first-track' && e.projectId === p.value.id)).toBe(true);
    expect(new Set(seen.map((e) => e.id)).size).toBe(1);
    expect(seen.at(-1)).toMatchObject({
      state: 'end',
      count: { done: 1500, total: 1500, unit: 'files' },
      bytes: { done: bytes, total: bytes },
    });
  });
});
