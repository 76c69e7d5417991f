/**
 * Import uploads through the contract (real services, a real export): parts in order land one document that the
 * core imports whole; a length over the limit is refused at begin; out-of-order, overlong, short and unknown
 * uploads are typed errors that import nothing; abandoned uploads are dropped (oldest first, idle ones).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok } from '../../shared/errors';
import { SESSION_IMPORT_MAX_CHARS } from '../../shared/limits';
import type { Session } from '../../shared/model';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { importUploads, UPLOAD_IDLE_MS } from './services-import';

let f: ServicesFixture;
let projectId: string;
let json: string;

beforeAll(async () => {
  f = await servicesFixture('import', { languageServers: false });
  const project = await f.router.handle('projects.open', { root: await mkdtemp(join(f.temp, 'proj-')) });
  if (!project.ok) throw new Error(project.error.message);
  projectId = (project.value as { id: string }).id;
  const session = await f.router.handle('sessions.create', { projectId, title: 'Quotes "and" \\ slashes\n' });
  if (!session.ok) throw new Error(session.error.message);
  const exported = await f.router.handle('sessions.export', { sessionId: (session.value as Session).id });
  if (!exported.ok) throw new Error(exported.error.message);
  json = (exported.value as { json: string }).json;
});

afterAll(async () => {
  await f?.close();
});

async function begin(length: number): Promise<string> {
  const r = await f.router.handle('sessions.importBegin', { projectId, length });
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { uploadId: string }).uploadId;
}

describe('sessions.importBegin / importPart / importEnd', () => {
  test('parts sent in order import the session whole, as one call would', async () => {
    const uploadId = await begin(json.length);
    for (let offset = 0; offset < json.length; offset += 7) {
      const part = await f.router.handle('sessions.importPart', {
        uploadId,
        offset,
        text: json.slice(offset, offset + 7),
      });
      expect(part).toEqual({ ok: true, value: { received: Math.min(json.length, offset + 7) } });
    }
    const done = await f.router.handle('sessions.importEnd', { uploadId });
    expect(done).toMatchObject({ ok: true, value: { title: 'Quotes "and" \\ slashes\n', projectId } });
    expect(await f.router.handle('sessions.importEnd', { uploadId })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  test('a length over the limit is refused at begin, before any part', async () => {
    const r = await f.router.handle('sessions.importBegin', { projectId, length: SESSION_IMPORT_MAX_CHARS + 1 });
    expect(r).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message: 'This export is 50,000,001 characters; Landfall imports session exports of at most 50,000,000.',
        hint: 'Nothing was sent or imported. Import a smaller export.',
        data: { length: SESSION_IMPORT_MAX_CHARS + 1, limit: SESSION_IMPORT_MAX_CHARS },
      },
    });
  });

  test('out of order, longer than declared, ended short: typed errors, nothing imported', async () => {
    const before = await f.router.handle('sessions.list', { projectId });
    const uploadId = await begin(10);
    expect(await f.router.handle('sessions.importPart', { uploadId, offset: 3, text: 'abc' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', data: { expected: 0 } },
    });
    expect(await f.router.handle('sessions.importPart', { uploadId, offset: 0, text: '{"a":' })).toMatchObject({
      ok: true,
    });
    expect(await f.router.handle('sessions.importPart', { uploadId, offset: 5, text: '123456' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { declared: 10 } },
    });
    expect(await f.router.handle('sessions.importEnd', { uploadId })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', data: { received: 5, declared: 10 } },
    });
    expect(await f.router.handle('sessions.importPart', { uploadId: 'upl_nope', offset: 0, text: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await f.router.handle('sessions.list', { projectId })).toEqual(before);
  });
});

describe('abandoned uploads', () => {
  test('beginning a fifth drops the least recently touched; an idle one is dropped at the next begin', () => {
    let clock = 0;
    const imported: string[] = [];
    const uploads = importUploads(
      (_p, text) => (imported.push(text), ok({ id: 's' } as Session)),
      () => clock,
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      clock = i;
      const r = uploads.begin('p', 2);
      if (!r.ok) throw new Error(r.error.message);
      ids.push(r.value.uploadId);
    }
    clock = 10;
    expect(uploads.part(ids[0] as string, 0, 'x').ok).toBe(true); // touched: now the newest
    expect(uploads.begin('p', 2).ok).toBe(true); // drops ids[1], the least recently touched
    expect(uploads.part(ids[1] as string, 0, 'x')).toMatchObject(
      fail('invalid_input', expect.any(String), expect.any(String)),
    );
    expect(uploads.part(ids[2] as string, 0, 'x').ok).toBe(true);
    clock = 10 + UPLOAD_IDLE_MS + 1;
    expect(uploads.part(ids[2] as string, 1, 'y').ok).toBe(true);
    expect(uploads.begin('p', 2).ok).toBe(true); // ids[0] and ids[3] were idle too long
    expect(uploads.end(ids[0] as string).ok).toBe(false);
    expect(uploads.end(ids[3] as string).ok).toBe(false);
    expect(uploads.end(ids[2] as string)).toEqual(ok({ id: 's' }));
    expect(imported).toEqual(['xy']);
  });
});
