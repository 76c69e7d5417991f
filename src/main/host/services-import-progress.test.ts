/**
 * An import's progress through the contract (real services, a real export of a session with 40 messages): an upload
 * is one `import` operation of its project — `upload` (characters received of the declared length), then `read` and
 * `store` (messages stored of all) — ending `end` with done == total; an upload ended short ends `failed`; a
 * one-call `sessions.import` reports `read` and `store` the same way; `progress.list` holds only what still runs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProgressEvent } from '../../shared/progress-schemas';
import { ProgressEventSchema } from '../../shared/progress-schemas';
import type { Session } from '../../shared/model';
import { servicesFixture, type ServicesFixture } from './services-fixture';

const MESSAGES = 40;
let f: ServicesFixture;
let projectId: string;
let json: string;
const seen: ProgressEvent[] = [];

beforeAll(async () => {
  f = await servicesFixture('import-progress', { languageServers: false });
  f.services.subscribe((e) => {
    if (e.type === 'progress') seen.push(ProgressEventSchema.parse(e));
  });
  const project = await f.router.handle('projects.open', { root: await mkdtemp(join(f.temp, 'proj-')) });
  if (!project.ok) throw new Error(project.error.message);
  projectId = (project.value as { id: string }).id;
  const session = await f.router.handle('sessions.create', { projectId, title: 'forty' });
  if (!session.ok) throw new Error(session.error.message);
  const exported = await f.router.handle('sessions.export', { sessionId: (session.value as Session).id });
  if (!exported.ok) throw new Error(exported.error.message);
  const doc = JSON.parse((exported.value as { json: string }).json) as {
    session: { id: string };
    messages: unknown[];
  };
  doc.messages = Array.from({ length: MESSAGES }, (_, i) => ({
    id: `msg_${i}`,
    sessionId: doc.session.id,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: `message ${i}`,
    time: 1_700_000_000_000 + i,
    parts: [],
  }));
  json = JSON.stringify(doc);
});

afterAll(async () => {
  await f?.close();
});

/** The reports of the one operation that started after `from`, checked for order; answers them. */
function operation(from: number): ProgressEvent[] {
  const mine = seen.slice(from);
  expect(new Set(mine.map((e) => e.id)).size).toBe(1);
  expect(mine.every((e) => e.operation === 'import' && e.projectId === projectId)).toBe(true);
  expect(mine[0]?.state).toBe('start');
  for (let i = 1; i < mine.length; i++) expect(mine[i]!.elapsedMs).toBeGreaterThanOrEqual(mine[i - 1]!.elapsedMs);
  for (const e of mine) if (e.count?.total !== undefined) expect(e.count.done).toBeLessThanOrEqual(e.count.total);
  return mine;
}

describe('import progress', () => {
  test('an upload reports upload, read and store, and ends with every message stored', async () => {
    const from = seen.length;
    const begun = await f.router.handle('sessions.importBegin', { projectId, length: json.length });
    if (!begun.ok) throw new Error(begun.error.message);
    const uploadId = (begun.value as { uploadId: string }).uploadId;
    for (let offset = 0; offset < json.length; offset += 500)
      await f.router.handle('sessions.importPart', { uploadId, offset, text: json.slice(offset, offset + 500) });
    const done = await f.router.handle('sessions.importEnd', { uploadId });
    expect(done).toMatchObject({ ok: true });
    const mine = operation(from);
    expect(mine.map((e) => e.phase).filter((p, i, a) => p !== a[i - 1])).toEqual(['upload', 'read', 'store']);
    const uploads = mine.filter((e) => e.phase === 'upload').map((e) => e.count!.done);
    expect(uploads).toEqual([...uploads].sort((a, b) => a - b));
    const last = mine.at(-1)!;
    expect(last.state).toBe('end');
    expect(last.count).toEqual({ done: MESSAGES, total: MESSAGES, unit: 'messages' });
    expect(f.services.handlers['progress.list']).toBeDefined();
    expect(await f.router.handle('progress.list', {})).toEqual({ ok: true, value: [] });
  });

  test('an upload ended short ends failed, and a one-call import reports read and store', async () => {
    let from = seen.length;
    const begun = await f.router.handle('sessions.importBegin', { projectId, length: json.length });
    if (!begun.ok) throw new Error(begun.error.message);
    const uploadId = (begun.value as { uploadId: string }).uploadId;
    await f.router.handle('sessions.importPart', { uploadId, offset: 0, text: json.slice(0, 100) });
    const listed = await f.router.handle('progress.list', {});
    expect(listed).toMatchObject({ ok: true, value: [{ operation: 'import', phase: 'upload', projectId }] });
    expect(await f.router.handle('sessions.importEnd', { uploadId })).toMatchObject({ ok: false });
    expect(operation(from).at(-1)).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });

    from = seen.length;
    expect((await f.router.handle('sessions.import', { projectId, json })).ok).toBe(true);
    const one = operation(from);
    expect(one.map((e) => e.phase).filter((p, i, a) => p !== a[i - 1])).toEqual(['read', 'store']);
    expect(one.at(-1)).toMatchObject({ state: 'end', count: { done: MESSAGES, total: MESSAGES } });
  });
});
