/**
 * What a watched (guided) track leaves out stays left out: an ignored folder that holds files the user's index
 * tracks is captured for those files only, and its other files must stay "not captured" through every guided
 * track — else a revert across a later rule change takes their absence from the snapshot for "did not exist" and
 * deletes them (a review found this in a reordering of walk.ts `subdir`; this is its reproduction).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from './index';

const hasGit = ((): boolean => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(hasGit)('an ignored folder with tracked files, over guided tracks', () => {
  it('keeps its untracked file on a revert after the folder is no longer ignored', async () => {
    const base = mkdtempSync(join(os.tmpdir(), 'landfall-leftout-'));
    const wt = join(base, 'wt');
    mkdirSync(join(wt, 'build'), { recursive: true });
    writeFileSync(join(wt, '.gitignore'), 'build/\n');
    writeFileSync(join(wt, 'README.md'), 'one\n');
    writeFileSync(join(wt, 'build/keep.txt'), 'tracked\n');
    writeFileSync(join(wt, 'build/secret.env'), 'TOKEN=user-data\n');
    execFileSync('git', ['init', '-q', wt]);
    execFileSync('git', ['-C', wt, 'add', '-f', '.gitignore', 'README.md', 'build/keep.txt']);
    const s = await SnapshotStore.open({
      worktree: wt,
      dataDir: join(base, 'data'),
      watch: true,
      ignoreDefaults: [],
      log: () => undefined,
    });
    try {
      await s.track({ verify: true });
      let last = '';
      for (let i = 0; i < 3; i++) {
        writeFileSync(join(wt, 'README.md'), `edit ${i}\n`);
        last = await s.track();
      }
      writeFileSync(join(wt, '.gitignore'), ''); // build/ is no longer ignored: secret.env is captured from now on
      await s.track();
      const r = await s.revert([await s.patch(last)]);
      expect(readFileSync(join(wt, 'build/secret.env'), 'utf8')).toBe('TOKEN=user-data\n');
      expect(JSON.stringify(r)).toContain('build/secret.env');
      expect(existsSync(join(wt, 'build/keep.txt'))).toBe(true);
    } finally {
      await s.close();
      rmSync(base, { recursive: true, force: true });
    }
  });
});
