/**
 * Which Node.js runs a node-script language server: this process under plain Node; under Electron (RunAsNode fuse
 * off in the packaged app) a real node from PATH, else from the usual install folders (nvm's newest first), else
 * none — never the app binary itself.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { nodeRuntime, usualNodeFolders } from './node-runtime';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fakeNode(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'node');
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

const none = (): undefined => undefined;
const exists = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

describe('nodeRuntime', () => {
  test('plain Node: this very binary', () => {
    expect(nodeRuntime(none, exists, false)).toBe(process.execPath);
  });

  test('Electron: node on PATH first, then the usual folders, else none — never process.execPath', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-node-'));
    dirs.push(home);
    expect(
      nodeRuntime(
        (bin) => `/somewhere/${bin}`,
        exists,
        true,
        () => [],
      ),
    ).toBe('/somewhere/node');
    expect(nodeRuntime(none, exists, true, () => [path.join(home, 'empty')])).toBeUndefined();
    const volta = fakeNode(path.join(home, '.volta', 'bin'));
    expect(
      nodeRuntime(none, exists, true, () => usualNodeFolders(home, 'linux').filter((d) => d.startsWith(home))),
    ).toBe(volta);
  });

  test('nvm: the newest installed version comes first (numeric order, not text order)', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-nvm-'));
    dirs.push(home);
    for (const v of ['v9.11.2', 'v20.19.0', 'v18.20.4']) fakeNode(path.join(home, '.nvm/versions/node', v, 'bin'));
    const nvm = usualNodeFolders(home, 'linux').filter((d) => d.includes('.nvm'));
    expect(nvm.map((d) => path.basename(path.dirname(d)))).toEqual(['v20.19.0', 'v18.20.4', 'v9.11.2']);
  });
});
