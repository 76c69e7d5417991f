/**
 * Helpers for the session and loop tests: temp folders, a service on a real data folder, the project's files
 * read independently of the snapshot store, the corpus location, and applying final.diff with jsdiff.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { AgentService } from '../service';
import type { ServiceExtras } from '../service';
import type { CorpusFile } from '../replay/corpus';
import { fileBytes } from '../replay/corpus';
import { ReplayModel } from '../providers/replay';
import type { PlannedCall } from '../replay/plan';

export const CORPUS = path.resolve(process.cwd(), 'fixtures/corpus');
export const SESSIONS_DIR = path.join(CORPUS, 'sessions');

/** Names of the corpus sessions. */
export function corpusSessions(): string[] {
  return readdirSync(SESSIONS_DIR)
    .filter((n) => !n.startsWith('.'))
    .sort();
}

/** A fresh temp folder; remember to remove it (`cleanupTemp`). */
export function tempDir(tag: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `landfall-${tag}-`));
}

export function cleanupTemp(...dirs: string[]): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

export interface Harness {
  svc: AgentService;
  dataDir: string;
  root: string;
  projectId: string;
  newSession(title?: string): string;
  close(): Promise<void>;
}

/** A service on a temp data folder with a temp project folder opened. */
export async function harness(extras: ServiceExtras = {}, root = tempDir('proj')): Promise<Harness> {
  const dataDir = tempDir('data');
  const opened = await AgentService.open({ dataDir, ...extras });
  if (!opened.ok) throw new Error(opened.error.message);
  const svc = opened.value;
  const project = await svc.openProject(root);
  if (!project.ok) throw new Error(project.error.message);
  return {
    svc,
    dataDir,
    root: project.value.root,
    projectId: project.value.id,
    newSession(title) {
      const s = svc.createSession(project.value.id, title);
      if (!s.ok) throw new Error(s.error.message);
      return s.value.id;
    },
    async close() {
      await svc.close();
      cleanupTemp(dataDir, root);
    },
  };
}

/** Every file under `root` (relative '/' paths → bytes), read straight from disk. */
export function readTree(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else out.set(path.relative(root, abs).split(path.sep).join('/'), readFileSync(abs));
    }
  };
  walk(root);
  return out;
}

/** Text form of a tree for readable assertion diffs. */
export function treeText(tree: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries(
    [...tree.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.toString('utf8')]),
  );
}

/** Expected end state: each base file with final.diff applied (jsdiff); `null` marks a deleted file. */
export function applyFinalDiff(files: CorpusFile[], finalDiff: string): Map<string, string | null> {
  const out = new Map<string, string | null>(files.map((f) => [f.path, fileBytes(f).toString('utf8')]));
  for (const p of parsePatch(finalDiff)) {
    const oldName = p.oldFileName?.replace(/^a\//, '');
    const newName = p.newFileName?.replace(/^b\//, '');
    const deleted = newName === '/dev/null';
    const name = (deleted ? oldName : newName) as string;
    const base = oldName && oldName !== '/dev/null' ? (out.get(oldName) ?? '') : '';
    if (deleted) {
      out.set(name, null);
      continue;
    }
    const applied = applyPatch(base ?? '', p);
    if (applied === false) throw new Error(`final.diff does not apply to ${name}`);
    out.set(name, applied);
  }
  return out;
}

/** A replay model playing hand-written calls (one turn per array). */
export function scripted(turns: Omit<PlannedCall, 'synthetic' | 'recorded' | 'seq'>[][]): ReplayModel {
  let seq = 0;
  return new ReplayModel(
    {
      turns: turns.map((t) => t.map((c) => ({ ...c, seq: ++seq, synthetic: false, recorded: 'ok' }))),
      notReplayed: [],
    },
    'scripted',
  );
}

/**
 * A model that streams one text delta (`delta`) and then waits until the turn is aborted — for tests of stop and
 * of what is refused while a turn runs.
 */
export function untilAborted(delta = 'Working on it'): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'slow',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream: (options) =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta });
            options.abortSignal?.addEventListener('abort', () => c.error(options.abortSignal?.reason));
          },
        }),
      }),
  };
}
