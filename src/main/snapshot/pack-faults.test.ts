/**
 * A step's pack (git/pack-writer.ts `finishInMemory`) under faults a hostile review found:
 * - a step that changes a file back to an earlier state stores trees already in the store (they are put without a
 *   lookup) and can write a pack byte-identical to an earlier one: the store must open it once, so gc and the
 *   idle merge do not remove it twice (they threw, and tracks failed once small packs piled up);
 * - a write that fails midway (a full disk; here a file-size limit, EFBIG) must leave nothing under the pack's
 *   name: the retry makes the same name and took the torn file for the pack.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { childArgs } from '../proc/test-child';
import { SnapshotStore } from './index';
import { cleanup, hasGit, tempDir } from './test-support';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) cleanup(d);
});

function fsck(gitdir: string, trees: string[]): void {
  if (!hasGit()) return;
  trees.forEach((t, i) => execFileSync('git', ['--git-dir', gitdir, 'update-ref', `refs/tags/t${i}`, t]));
  execFileSync('git', ['--git-dir', gitdir, 'fsck', '--full', '--strict'], { stdio: 'pipe' });
}

describe('step packs', () => {
  it('a pack written again byte for byte is opened once: gc and later steps go on', async () => {
    const base = tempDir('duppack');
    made.push(base);
    const wt = join(base, 'wt');
    mkdirSync(join(wt, 'd'), { recursive: true });
    writeFileSync(join(wt, 'd/f'), '1');
    const s = await SnapshotStore.open({ worktree: wt, dataDir: join(base, 'data'), watch: true });
    const trees: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      writeFileSync(join(wt, 'd/f'), '1');
      trees.push(await s.track({ verify: true }));
      writeFileSync(join(wt, 'd/f'), '2');
      trees.push(await s.track()); // guided: the same trees each turn, put without a lookup
    }
    writeFileSync(join(wt, 'd/f'), '1');
    trees.push(await s.track());
    await s.gc({ keep: trees, olderThanMs: 0 });
    for (const t of trees) expect((await s.listFiles(t)).map((f) => f.path)).toEqual(['d/f']);
    writeFileSync(join(wt, 'd/f'), '3');
    trees.push(await s.track());
    await s.gc({ keep: [], olderThanMs: 0 });
    expect(await s.readFile(trees.at(-1) as string, 'd/f')).toEqual(Buffer.from('3'));
    fsck(s.gitdir, [trees.at(-1) as string]);
    await s.close();
  });

  it('a pack whose write failed midway leaves nothing under its name; the next track stores it whole', async () => {
    const base = tempDir('diskfull');
    made.push(base);
    const wt = join(base, 'wt');
    const data = join(base, 'data');
    mkdirSync(join(wt, 'p'), { recursive: true });
    writeFileSync(join(wt, 'p/seed'), 'seed');
    const first = await SnapshotStore.open({ worktree: wt, dataDir: data });
    await first.track();
    const gitdir = first.gitdir;
    await first.close();
    const big = randomBytes(900_000);
    writeFileSync(join(wt, 'p/big.bin'), big);
    const script = fileURLToPath(new URL('./disk-full-child.ts', import.meta.url));
    // 200 KiB per file: the step's pack (the 900 KB file stored) is cut short with EFBIG.
    const run = spawnSync(
      'bash',
      [
        '-c',
        'trap "" XFSZ; ulimit -S -f 200; exec "$0" "$@"',
        process.execPath,
        ...(await childArgs(script, [wt, data])),
      ],
      { encoding: 'utf8' },
    );
    expect(run.stdout.trim(), run.stderr).toBe('EFBIG');
    const names = readdirSync(join(gitdir, 'objects/pack'));
    const packs = names.filter((n) => n.endsWith('.pack')).map((n) => n.slice(0, -5));
    expect(
      packs.every((p) => names.includes(`${p}.idx`)),
      names.join(' '),
    ).toBe(true);
    expect(names.filter((n) => n.startsWith('tmp_'))).toEqual([]);
    const s = await SnapshotStore.open({ worktree: wt, dataDir: data });
    const t = await s.track();
    expect(await s.readFile(t, 'p/big.bin')).toEqual(big);
    fsck(gitdir, [t]);
    await s.close();
  });
});
