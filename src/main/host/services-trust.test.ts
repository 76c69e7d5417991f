/** trust.list / trust.set through the router, on real services and a real trust.json. */
import { mkdtempSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { servicesFixture } from './services-fixture';
import type { ServicesFixture } from './services-fixture';

let fixture: ServicesFixture;
beforeEach(async () => {
  fixture = await servicesFixture('trust', { languageServers: false });
});
afterEach(async () => {
  await fixture?.close();
});

describe('trust.* calls', () => {
  test('trust by real path, list, revoke; trust.json holds the list; a missing folder is refused', async () => {
    const folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'trust-call-')));
    const link = `${folder}-link`;
    symlinkSync(folder, link);
    expect(await fixture.router.handle('trust.list', {})).toEqual({ ok: true, value: { folders: [] } });
    const trusted = await fixture.router.handle('trust.set', { path: link, trusted: true });
    expect(trusted).toMatchObject({ ok: true, value: { folders: [{ path: folder }] } });
    const onDisk = JSON.parse(readFileSync(path.join(fixture.dataDir, 'trust.json'), 'utf8'));
    expect(onDisk.folders.map((f: { path: string }) => f.path)).toEqual([folder]);
    const missing = await fixture.router.handle('trust.set', { path: path.join(folder, 'nope'), trusted: true });
    expect(missing.ok ? 'ok' : missing.error.code).toBe('not_a_directory');
    const revoked = await fixture.router.handle('trust.set', { path: folder, trusted: false });
    expect(revoked).toEqual({ ok: true, value: { folders: [] } });
  });
});
