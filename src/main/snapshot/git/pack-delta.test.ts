/**
 * Deltas in the store's packs: a first track over files that resemble each other (copies of a package at other
 * versions, `.js` / `.mjs` twins, source maps, bundler-hashed names) stores many of them as OFS_DELTA entries, and
 * every reader gets the exact bytes back — the store itself (read, restore into an emptied tree), isomorphic-git
 * (the format reference), isomorphic-git's indexPack (rebuilds our .idx byte for byte, so the crc of every delta
 * entry is right) and native git (fsck) when present. Packs git writes (OFS and REF deltas, long chains) are read
 * too, and a damaged delta is an error, never other bytes.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import { dirname, join } from 'node:path';
import * as git from 'isomorphic-git';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotStore } from '../index';
import { ObjectDb } from './object-db';
import { PackFile } from './pack-index';
import { MAX_DEPTH } from './pack-writer';
import { cleanup, hasGit, readState, tempDir } from '../test-support';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) cleanup(d);
});

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** Source-like text of `lines` lines; `variant` changes a few of them. */
function source(seed: number, lines: number, variant: number): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = Math.floor(r() * 1000);
    out.push(
      i % 37 === variant % 37
        ? `  // changed in version ${variant}: ${n}`
        : `  const value${i} = compute(${n}, 'key-${n % 17}');`,
    );
  }
  return `${out.join('\n')}\n`;
}

/** 8 versions of one package, each with twins, maps and hashed bundles; plus unrelated files. */
function writeTree(root: string): void {
  const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (let v = 0; v < 8; v++) {
    const pkg = v === 0 ? 'node_modules/lib' : `node_modules/dep${v}/node_modules/lib`;
    const js = source(1, 300 + v, v);
    put(`${pkg}/dist/index.js`, `'use strict';\n${js}module.exports = {};\n`);
    put(`${pkg}/dist/index.mjs`, `${js}export {};\n`);
    put(`${pkg}/dist/index.js.map`, JSON.stringify({ version: 3, sources: ['index.ts'], mappings: source(2, 120, v) }));
    put(
      `${pkg}/dist/index.mjs.map`,
      JSON.stringify({ version: 3, sources: ['index.ts'], mappings: source(2, 120, v + 1) }),
    );
    put(`${pkg}/assets/worker-${(0x1234abcd + v * 7919).toString(36)}.js`, source(3, 2000, v));
    put(`${pkg}/README.md`, `# lib ${v}\n\n${source(4, 40, v)}`);
  }
  for (let i = 0; i < 20; i++) put(`src/file${i}.ts`, source(100 + i, 50, 0));
}

/** Entry type (1–4, 6, 7) and delta chain depth of every object of a pack, read from its .idx and .pack. */
function entries(packBase: string): { type: number; depth: number }[] {
  const idx = readFileSync(`${packBase}.idx`);
  const pack = readFileSync(`${packBase}.pack`);
  const n = idx.readUInt32BE(8 + 255 * 4);
  const offsetsAt = 8 + 1024 + n * 24;
  const depthAt = new Map<number, number>();
  const out: { type: number; depth: number }[] = [];
  const offsets = Array.from({ length: n }, (_, i) => idx.readUInt32BE(offsetsAt + i * 4)).sort((a, b) => a - b);
  for (const offset of offsets) {
    let p = offset;
    let byte = pack[p++] as number;
    const type = (byte >> 4) & 7;
    while (byte & 0x80) byte = pack[p++] as number;
    let depth = 0;
    if (type === 6) {
      byte = pack[p++] as number;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = pack[p++] as number;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      depth = (depthAt.get(offset - distance) as number) + 1;
    }
    depthAt.set(offset, depth);
    out.push({ type, depth });
  }
  return out;
}

/** A temp folder holding writeTree's tree, its store (caller closes it) and the first track's tree id. */
async function trackedTree(tag: string): Promise<{ base: string; wt: string; store: SnapshotStore; tree: string }> {
  const base = tempDir(tag);
  dirs.push(base);
  const wt = join(base, 'wt');
  writeTree(wt);
  const store = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), ignoreDefaults: [] });
  return { base, wt, store, tree: await store.track() };
}

const packBases = (gitdir: string): string[] =>
  readdirSync(join(gitdir, 'objects', 'pack'))
    .filter((f) => f.endsWith('.pack'))
    .map((f) => join(gitdir, 'objects', 'pack', f.slice(0, -5)));

describe('deltas in packs', () => {
  it('a first track stores similar files as deltas; the store, isomorphic-git and git all read the exact bytes', async () => {
    const { base, wt, store, tree } = await trackedTree('delta');
    const before = readState(wt);
    const [packBase] = packBases(store.gitdir);
    const kinds = entries(packBase as string);
    const deltas = kinds.filter((e) => e.type === 6);
    // 48 package files: the first version's distinct files are whole, and a chain reaching MAX_DEPTH starts
    // over with a whole one; everything else can sit on an earlier version or its twin.
    expect(deltas.length).toBeGreaterThanOrEqual(36);
    expect(Math.max(...kinds.map((e) => e.depth))).toBeLessThanOrEqual(MAX_DEPTH);
    expect(kinds.every((e) => [2, 3, 6].includes(e.type))).toBe(true);

    for (const f of await store.listFiles(tree)) {
      const ours = Buffer.from((await store.readFile(tree, f.path)) as Uint8Array);
      expect(ours.equals(readFileSync(join(wt, f.path))), f.path).toBe(true);
      const theirs = await git.readBlob({ fs, gitdir: store.gitdir, oid: f.oid });
      expect(Buffer.from(theirs.blob).equals(ours), `isomorphic-git ${f.path}`).toBe(true);
    }
    const scratch = join(base, 'scratch');
    mkdirSync(join(scratch, 'objects', 'pack'), { recursive: true });
    const name = `${(packBase as string).split('/').pop() as string}.pack`;
    copyFileSync(`${packBase as string}.pack`, join(scratch, 'objects', 'pack', name));
    await git.indexPack({ fs, dir: scratch, gitdir: scratch, filepath: join('objects', 'pack', name) });
    expect(
      readFileSync(join(scratch, 'objects', 'pack', name.replace(/\.pack$/, '.idx'))).equals(
        readFileSync(`${packBase as string}.idx`),
      ),
    ).toBe(true);
    if (hasGit())
      execFileSync('git', ['--git-dir', store.gitdir, 'fsck', '--full', '--no-dangling'], { stdio: 'pipe' });

    for (const top of readdirSync(wt)) rmSync(join(wt, top), { recursive: true });
    await store.restore(tree);
    expect(readState(wt)).toEqual(before);
    await store.close();
  });

  it('property: files drawn from a few texts with random edits, names and folders read back byte for byte', async () => {
    const base = tempDir('deltaprop');
    dirs.push(base);
    const texts = [source(7, 200, 0), source(8, 60, 0), source(9, 500, 0)];
    const edit = fc.record({
      text: fc.nat({ max: texts.length - 1 }),
      cut: fc.nat(),
      insert: fc.string({ maxLength: 300 }),
      drop: fc.nat({ max: 2000 }),
    });
    const file = fc.record({
      dir: fc.constantFrom('', 'a/', 'a/b/', 'c/dist/', 'c/src/'),
      name: fc.constantFrom(
        'index.js',
        'index.mjs',
        'index.js.map',
        'util.ts',
        'util.d.ts',
        'worker-ab12cd34.js',
        'worker.js',
        'README.md',
      ),
      edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
    });
    let run = 0;
    let deltaEntries = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 30 }), async (files) => {
        const wt = join(base, `wt${run}`);
        const data = join(base, `data${run++}`);
        mkdirSync(wt);
        const expected = new Map<string, Buffer>();
        for (const f of files) {
          let body = '';
          for (const e of f.edits) {
            const t = texts[e.text] as string;
            const at = e.cut % (t.length + 1);
            body += t.slice(0, at) + e.insert + t.slice(Math.min(t.length, at + e.drop));
          }
          mkdirSync(join(wt, f.dir), { recursive: true });
          writeFileSync(join(wt, f.dir, f.name), body);
          expected.set(`${f.dir}${f.name}`, Buffer.from(body));
        }
        const store = await SnapshotStore.open({ worktree: wt, dataDir: data, ignoreDefaults: [] });
        const tree = await store.track();
        for (const p of packBases(store.gitdir)) deltaEntries += entries(p).filter((e) => e.type === 6).length;
        const db = new ObjectDb(store.gitdir);
        for (const f of await store.listFiles(tree)) {
          expect(db.read(f.oid)?.content.equals(expected.get(f.path) as Buffer), f.path).toBe(true);
          const theirs = await git.readBlob({ fs, gitdir: store.gitdir, oid: f.oid });
          expect(Buffer.from(theirs.blob).equals(expected.get(f.path) as Buffer), `isomorphic-git ${f.path}`).toBe(
            true,
          );
        }
        db.close();
        await store.close();
        rmSync(wt, { recursive: true });
        rmSync(data, { recursive: true });
      }),
      { numRuns: 25 },
    );
    expect(deltaEntries).toBeGreaterThan(25); // the property is about deltas: make sure there were many
  });

  it.skipIf(!hasGit())('reads packs git writes: REF_DELTA and OFS_DELTA entries, chains up to 50', async () => {
    const { base, wt, store, tree } = await trackedTree('gitpack');
    const files = await store.listFiles(tree);
    const ids = [...new Set(files.map((f) => f.oid))];
    for (const flag of ['--no-delta-base-offset', '--delta-base-offset']) {
      const out = join(base, `git${flag}`);
      mkdirSync(out);
      const env = { ...process.env, GIT_DIR: store.gitdir };
      const sum = execFileSync(
        'git',
        [
          'pack-objects',
          flag,
          '--no-reuse-delta',
          '--no-reuse-object',
          '--window=50',
          '--depth=50',
          '-q',
          join(out, 'pack'),
        ],
        { env, input: `${ids.join('\n')}\n`, encoding: 'utf8' },
      ).trim();
      const packBase = join(out, `pack-${sum}`);
      const kinds = entries(packBase);
      expect(kinds.some((e) => e.type === (flag === '--no-delta-base-offset' ? 7 : 6))).toBe(true);
      const pack = new PackFile(packBase);
      for (const f of files)
        expect(pack.read(f.oid)?.content.equals(readFileSync(join(wt, f.path))), `${flag} ${f.path}`).toBe(true);
      pack.close();
    }
    await store.close();
  });

  it('a damaged delta entry is an error, never other bytes', async () => {
    const { wt, store, tree } = await trackedTree('damaged');
    const files = await store.listFiles(tree);
    await store.close();
    const [packBase] = packBases(store.gitdir);
    const pack = readFileSync(`${packBase as string}.pack`);
    // Damage the middle of every delta entry's zlib stream (found as the bytes between consecutive offsets).
    const idx = readFileSync(`${packBase as string}.idx`);
    const n = idx.readUInt32BE(8 + 255 * 4);
    const offsets = Array.from({ length: n }, (_, i) => idx.readUInt32BE(8 + 1024 + n * 24 + i * 4)).sort(
      (a, b) => a - b,
    );
    offsets.push(pack.length - 20);
    for (let i = 0; i < n; i++) {
      const at = offsets[i] as number;
      if ((((pack[at] as number) >> 4) & 7) !== 6) continue;
      const mid = Math.floor((at + (offsets[i + 1] as number)) / 2) + 4;
      pack[mid] = (pack[mid] as number) ^ 0xff;
    }
    fs.writeFileSync(`${packBase as string}.pack`, pack);
    const db = new ObjectDb(store.gitdir);
    let failed = 0;
    for (const f of files) {
      let got: Buffer | undefined;
      try {
        got = db.read(f.oid)?.content;
      } catch {
        failed++;
        continue;
      }
      expect(got?.equals(readFileSync(join(wt, f.path))), f.path).toBe(true);
    }
    expect(failed).toBeGreaterThanOrEqual(40);
    db.close();
  });
});
