/**
 * Skills, asserted on what the model was sent (AI SDK mock model, real folders): the baseline lists name + one
 * line of each skill (project first, then the data folder's), never the body; the `skill` tool gives the whole
 * SKILL.md through the permission gate; an unknown name is a typed error naming the ones there are; a skill added
 * mid-session gives exactly one change notice.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { mockModel, sent } from './context-test-kit';
import { messageText, NOTICE_TAG } from './request-text';
import { parseFrontMatter } from './skills';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function writeSkill(dir: string, name: string, description: string, body: string): void {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

describe('skills', () => {
  it('lists name + one line in the baseline; the skill tool loads the body; unknown names are typed errors', async () => {
    const hh = (h = await harness());
    writeSkill(
      path.join(hh.root, '.landfall', 'skills'),
      'release',
      'Cut a release: version, changelog, tag.',
      'RELEASE-BODY-1: bump the version in package.json first.',
    );
    writeSkill(path.join(hh.dataDir, 'skills'), 'review', 'Review a diff for bugs before committing.', 'REVIEW-BODY-2');
    const model = mockModel([
      { tool: 'skill', args: { name: 'release' } },
      { tool: 'skill', args: { name: 'deploy' } },
      { text: 'ok' },
    ]);
    const sessionId = hh.newSession();
    const r = await hh.svc.runWithModel(sessionId, model, 'make a release');
    expect(r.ok).toBe(true);
    const { system } = sent(model, 0);
    expect(system).toContain(
      '<skills>\nSkills you can load with the skill tool when a task matches one:\n- release: Cut a release: version, changelog, tag.\n- review: Review a diff for bugs before committing.\n</skills>',
    );
    expect(system).not.toContain('RELEASE-BODY-1');
    expect(model.doStreamCalls[0]?.tools?.map((t) => t.name)).toContain('skill');
    const results = sent(model, 2)
      .messages.filter((m) => (m as { role: string }).role === 'tool')
      .map(messageText);
    expect(results[0]).toContain('RELEASE-BODY-1: bump the version in package.json first.');
    expect(results[0]).toContain(
      `<skill name="release" file="${path.join(hh.root, '.landfall', 'skills', 'release', 'SKILL.md')}">`,
    );
    expect(results[1]).toBe('Error (not_found): There is no skill named "deploy".\nAvailable: release, review.');
  });

  it('a skill added mid-session gives exactly one change notice', async () => {
    const hh = (h = await harness());
    const model = mockModel([{ text: '1' }, { tool: 'list', args: {} }, { text: '2' }]);
    const sessionId = hh.newSession();
    await hh.svc.runWithModel(sessionId, model, 'a');
    expect(sent(model, 0).system).not.toContain('<skills>');
    writeSkill(
      path.join(hh.root, '.claude', 'skills'),
      'bench',
      'Run the benchmarks and compare with the anchor.',
      'B',
    );
    await hh.svc.runWithModel(sessionId, model, 'b');
    const notices = (i: number): string[] =>
      sent(model, i)
        .messages.map(messageText)
        .filter((t) => t.startsWith(NOTICE_TAG));
    expect(notices(1)).toEqual([
      `${NOTICE_TAG}\nThe available skills changed:\n<skills>\nSkills you can load with the skill tool when a task matches one:\n- bench: Run the benchmarks and compare with the anchor.\n</skills>\n</context-notice>`,
    ]);
    expect(notices(2)).toEqual(notices(1));
  });

  it('front matter: both fields needed, quotes removed', () => {
    expect(parseFrontMatter('---\nname: "x"\ndescription: does y\n---\nbody')).toEqual({
      name: 'x',
      description: 'does y',
    });
    expect(parseFrontMatter('---\nname: x\n---\nbody')).toBeUndefined();
    expect(parseFrontMatter('name: x\ndescription: y')).toBeUndefined();
  });
});
