/**
 * The history handlers tell the window what the core kept (fixtures/bugs/README.md B31): after the sample replay, README.md is edited by
 * hand; `history.undo` answers `kept: [{README.md, changed_after_step}]` and leaves the hand edit byte for byte; a
 * forced `history.revert` to the same boundary keeps nothing and writes the snapshot's bytes. Real services (SQLite,
 * snapshot store) over a copy of the bundled sample project.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Router } from './router';
import { servicesFixture, type ServicesFixture } from './services-fixture';

const RESOURCES = resolve(process.cwd(), 'resources');
const ALLOW_ALL = {
  defaultProvider: 'x',
  providers: [{ id: 'x', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'none' }],
  permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
};

let fixture: ServicesFixture;
let temp: string;
let router: Router;

beforeEach(async () => {
  fixture = await servicesFixture('history', { settings: ALLOW_ALL, languageServers: false });
  ({ temp, router } = fixture);
});

afterEach(async () => {
  await fixture?.close();
});

/** Calls a handler through the router and returns its value (throws on a failure: these calls must succeed). */
async function value<T>(name: Parameters<Router['handle']>[0], input: unknown): Promise<T> {
  const r = await router.handle(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

describe('history handlers report kept files', () => {
  test('undo keeps a hand-edited file and names it; a forced revert to the same boundary overwrites it', async () => {
    const root = join(temp, 'greeter');
    await cp(join(RESOURCES, 'sample/project'), root, { recursive: true });
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const project = await value<{ id: string }>('projects.open', { root });
    const session = await value<{ id: string }>('sessions.create', { projectId: project.id });
    await value('chat.replay', { sessionId: session.id, recording: 'sample' });
    await expect
      .poll(
        async () => {
          const v = await value<{ busy: boolean; messages: unknown[] }>('sessions.get', { sessionId: session.id });
          return !v.busy && v.messages.length;
        },
        { timeout: 30_000 },
      )
      .toBe(4);

    const hand = `${await readFile(join(root, 'README.md'), 'utf8')}my own line\n`;
    await writeFile(join(root, 'README.md'), hand);
    const undone = await value<{ text: string; kept: unknown[]; session: { revert?: { messageId: string } } }>(
      'history.undo',
      { sessionId: session.id },
    );
    expect(undone.kept).toEqual([{ path: 'README.md', reason: 'changed_after_step' }]);
    expect(await readFile(join(root, 'README.md'), 'utf8')).toBe(hand);
    const boundary = undone.session.revert?.messageId;
    expect(typeof boundary).toBe('string');

    const forced = await value<{ kept: unknown[]; session: { revert?: { messageId: string } } }>('history.revert', {
      sessionId: session.id,
      messageId: boundary,
      force: true,
    });
    expect(forced.kept).toEqual([]);
    expect(forced.session.revert?.messageId).toBe(boundary);
    expect(await readFile(join(root, 'README.md'), 'utf8')).toBe(readme);
  }, 60_000);
});
