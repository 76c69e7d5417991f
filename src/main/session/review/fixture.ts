/**
 * Test fixture for review (used by review.test.ts files): a real temp project folder, a real SnapshotStore in a temp
 * data folder, a real session database (SessionStore), and a session whose assistant message holds one step per
 * entry of `steps` — each step writes its files between two real track() calls and stores step-start / tool /
 * step-finish / patch parts, exactly as the agent loop does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ok } from '../../../shared/errors';
import type { ReviewDiff, ReviewTarget } from '../../../shared/review-schemas';
import { SnapshotStore } from '../../snapshot/store';
import { newId } from '../ids';
import { SessionStore } from '../store';
import { ReviewService } from '../review';
import { ReviewLog } from './log';

/** File contents of a step: bytes or text to write, null to delete. */
export type StepFiles = Record<string, string | Buffer | null>;

export interface Fixture {
  root: string;
  dataDir: string;
  snapshots: SnapshotStore;
  sessions: SessionStore;
  sessionId: string;
  messageId: string;
  review: ReviewService;
  busy: { value: boolean };
  /** A fresh ReviewService over a reopened database (what a restart sees). */
  reopen(): ReviewService;
  write(files: StepFiles): Promise<void>;
  step(tool: string, files: StepFiles): Promise<void>;
  close(): Promise<void>;
}

/** Build the fixture with `initial` files on disk, then run `steps`. */
export async function reviewFixture(
  initial: StepFiles,
  steps: { tool: string; files: StepFiles }[] = [],
  opts: { maxFileBytes?: number } = {},
): Promise<Fixture> {
  const base = mkdtempSync(join(tmpdir(), 'landfall-review-'));
  const root = join(base, 'project');
  const dataDir = join(base, 'data');
  await mkdir(root, { recursive: true });
  const write = async (files: StepFiles): Promise<void> => {
    for (const [p, c] of Object.entries(files)) {
      const abs = join(root, p);
      if (c === null) await rm(abs, { force: true });
      else {
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, c);
      }
    }
  };
  await write(initial);
  const snapshots = await SnapshotStore.open({
    worktree: root,
    dataDir,
    ignoreDefaults: [],
    ...(opts.maxFileBytes ? { maxFileBytes: opts.maxFileBytes } : {}),
    log: () => {},
  });
  const dbFile = join(dataDir, 'landfall.db');
  let sessions = SessionStore.open(dbFile);
  const project = sessions.upsertProject(snapshots.worktree, 'project');
  const sessionId = sessions.createSession(project.id, 'review').id;
  sessions.addMessage(sessionId, 'user', 'please edit');
  const messageId = sessions.addMessage(sessionId, 'assistant').id;
  const busy = { value: false };
  const make = (): ReviewService =>
    new ReviewService({
      project: () => ok({ root: snapshots.worktree, snapshots }),
      messages: (id) => sessions.messages(id),
      revert: (id) => sessions.getSession(id)?.revert,
      log: new ReviewLog(sessions.db),
      isBusy: () => busy.value,
    });
  const part = { sessionId, messageId, time: Date.now() };
  const step = async (tool: string, files: StepFiles): Promise<void> => {
    const from = await snapshots.track();
    sessions.putPart({ ...part, id: newId('prt'), type: 'step-start', snapshot: from });
    await write(files);
    for (const filePath of Object.keys(files)) {
      sessions.putPart({
        ...part,
        id: newId('prt'),
        type: 'tool',
        tool,
        callId: newId('call'),
        state: 'completed',
        input: { filePath },
      });
    }
    const to = await snapshots.track();
    sessions.putPart({ ...part, id: newId('prt'), type: 'step-finish', snapshot: to });
    sessions.putPart({ ...part, id: newId('prt'), type: 'patch', hash: from, files: Object.keys(files) });
  };
  for (const s of steps) await step(s.tool, s.files);
  const fx: Fixture = {
    root: snapshots.worktree,
    dataDir,
    snapshots,
    sessions,
    sessionId,
    messageId,
    review: make(),
    busy,
    reopen() {
      sessions.close();
      sessions = SessionStore.open(dbFile);
      fx.sessions = sessions;
      return make();
    },
    write,
    step,
    async close() {
      await snapshots.close();
      sessions.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
  return fx;
}

/** The review diff of `target` in the fixture's session; throws with the error data when the answer is a failure. */
export async function diffOf(f: Fixture, target: ReviewTarget): Promise<ReviewDiff> {
  const r = await f.review.diff(f.sessionId, target);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

/** The target of the `i`-th step on the session's timeline (0-based), compared `against` a point (default the previous one). */
export function stepTarget(f: Fixture, i: number, against: 'previous' | 'start' | 'now' = 'previous'): ReviewTarget {
  const steps = f.review.timeline(f.sessionId).filter((e) => e.kind === 'step');
  return { kind: 'point', entryId: steps[i]!.id, against };
}
