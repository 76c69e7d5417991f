/**
 * Every scenario under fixtures/conformance/apply_patch (read at test time; layout and harness contract in its
 * README): copy input/ into an empty temp root, apply patch.txt once, then compare the whole tree with expected/
 * byte for byte, or check the error word and that the tree is byte-identical to input/.
 */
import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPatch } from './index';
import { listTree, makeTemp, removeTemp } from './test-support/tree';

const CORPUS = path.resolve(process.cwd(), 'fixtures/conformance/apply_patch');
const scenarios = readdirSync(CORPUS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map(removeTemp));
});

async function exists(p: string): Promise<boolean> {
  return fsp.stat(p).then(
    () => true,
    () => false,
  );
}

describe('apply_patch conformance corpus', () => {
  it('finds the scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(32);
  });

  it.each(scenarios)('%s', async (name) => {
    const dir = path.join(CORPUS, name);
    const root = await makeTemp();
    temps.push(root);
    if (await exists(path.join(dir, 'input'))) await fsp.cp(path.join(dir, 'input'), root, { recursive: true });
    const before = await listTree(root);
    const patch = (await fsp.readFile(path.join(dir, 'patch.txt'))).toString('utf8');
    const result = await applyPatch(patch, { root });
    if (await exists(path.join(dir, 'expected'))) {
      expect(result.ok ? 'ok' : result.error).toBe('ok');
      expect(await listTree(root)).toEqual(await listTree(path.join(dir, 'expected')));
    } else {
      const word = (await fsp.readFile(path.join(dir, 'error.txt'), 'utf8')).trim();
      expect(result.ok ? 'ok' : result.error.code).toBe(word);
      expect(await listTree(root)).toEqual(before);
    }
  });
});
