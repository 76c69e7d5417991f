/**
 * Test helpers: real temp folders, copied trees and byte-exact tree listings (relative path → bytes; empty
 * folders ignored, as the conformance harness contract says).
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh empty temp folder (realpath'd); remove it with `removeTemp`. */
export async function makeTemp(prefix = 'landfall-patch-'): Promise<string> {
  return fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** Remove a temp folder made by makeTemp (and everything in it). */
export async function removeTemp(dir: string): Promise<void> {
  await fsp.rm(dir, { recursive: true, force: true });
}

/** Every regular file under `dir` (temp files included): relative path ('/' separators) → bytes. */
export async function listTree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  let entries: string[];
  try {
    entries = (await fsp.readdir(dir, { recursive: true })) as string[];
  } catch {
    return out;
  }
  for (const rel of entries.sort()) {
    const abs = path.join(dir, rel);
    const st = await fsp.lstat(abs);
    if (st.isFile()) out.set(rel.split(path.sep).join('/'), await fsp.readFile(abs));
  }
  return out;
}

/** Write a tree of files (relative path → text or bytes) under `dir`. */
export async function writeTree(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    await fsp.mkdir(path.dirname(abs), { recursive: true });
    await fsp.writeFile(abs, content);
  }
}

/** A tree listing as a plain object of UTF-8 texts, for readable `toEqual` diffs. */
export function treeObject(tree: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries([...tree].map(([k, v]) => [k, v.toString('utf8')]));
}
