import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TrustStore } from './store';

const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'trust-store-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('TrustStore', () => {
  it('trust covers the folders below, survives a reopen, and a bad file trusts nothing', async () => {
    const file = path.join(tmp, 'trust2.json');
    const store = TrustStore.open(file);
    const parent = path.join(tmp, 'parent');
    mkdirSync(path.join(parent, 'child'), { recursive: true });
    await store.trust(parent, 1000);
    expect(store.isTrusted(path.join(parent, 'child'))).toBe(true);
    expect(store.isTrusted(tmp)).toBe(false);
    expect(store.isTrusted(`${parent}-sibling`)).toBe(false);
    expect(TrustStore.open(file).list()).toEqual([{ path: parent, trustedAt: 1000 }]);
    writeFileSync(file, '{"version":1,"folders":[{"path":1}]}');
    const broken = TrustStore.open(file);
    expect(broken.isTrusted(parent)).toBe(false);
    expect(broken.problem()).toMatch(/cannot be read/);
  });

  it('approves a project file by its content hash only', async () => {
    const store = TrustStore.open(path.join(tmp, 'trust3.json'));
    const mcp = path.join(tmp, '.mcp.json');
    writeFileSync(mcp, '{}');
    await store.approveFile(mcp, 'a'.repeat(64));
    expect(store.fileApproved(mcp, 'a'.repeat(64))).toBe(true);
    expect(store.fileApproved(mcp, 'b'.repeat(64))).toBe(false);
  });
});
