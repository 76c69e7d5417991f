/**
 * Every case of fixtures/conformance/edit/cases.jsonl (the repository's copy, refreshed by `npm run fixtures:sync`): the exact resulting
 * bytes, or the exact error code. `file: null` means the file does not exist: the engine sees empty content.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replace } from './index';

interface Case {
  id: string;
  kind: string;
  why: string;
  file: string | null;
  old: string;
  new: string;
  replace_all?: boolean;
  expect: { content?: string; error?: string };
}

const casesPath = path.resolve(process.cwd(), 'fixtures/conformance/edit/cases.jsonl');
const cases: Case[] = readFileSync(casesPath, 'utf8')
  .split('\n')
  .filter((l) => l.trim().length > 0)
  .map((l) => JSON.parse(l) as Case);

describe('edit conformance (fixtures/conformance/edit)', () => {
  it('reads a non-trivial corpus', () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  for (const c of cases) {
    it(`${c.kind}: ${c.id}`, () => {
      const result = replace(c.file ?? '', c.old, c.new, { replaceAll: c.replace_all === true });
      if (c.expect.error !== undefined) {
        expect(result.ok ? 'landed' : result.error.code, c.why).toBe(c.expect.error);
      } else {
        if (!result.ok) expect.fail(`${c.why}\n→ ${result.error.code}: ${result.error.message}`);
        expect(result.value.content, c.why).toBe(c.expect.content);
      }
    });
  }
});
