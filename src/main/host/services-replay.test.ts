/**
 * The app's replay path (prepareReplay) seeds only missing base files and refuses, before anything is written,
 * when a project file differs from the recording's base (trial: a replay replaced the user's hydra/utils.py).
 * Real service (SQLite, snapshot store) in temp folders, the real hydra corpus session.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, SESSIONS_DIR } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';
import { fileBytes, loadCorpusSession } from '../agent/replay/corpus';
import { prepareReplay } from './services-replay';

const HYDRA = path.join(SESSIONS_DIR, 'swea-hydra-1915-kimik2');
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('app replay seeding', () => {
  it('a differing existing file refuses with `exists`; nothing is written', async () => {
    h = await harness();
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), 'mine\n');
    const r = await prepareReplay(h.svc, h.newSession(), HYDRA);
    expect(!r.ok && [r.error.code, r.error.data?.files]).toEqual(['exists', ['hydra/utils.py']]);
    expect(readFileSync(path.join(h.root, 'hydra/utils.py'), 'utf8')).toBe('mine\n');
    expect(existsSync(path.join(h.root, 'hydra/_internal/utils.py'))).toBe(false);
  });

  it('an existing file with the base bytes is no refusal; missing ones are written and the replay runs', async () => {
    h = await harness();
    const corpus = await loadCorpusSession(HYDRA);
    if (!corpus.ok) throw new Error(corpus.error.message);
    const base = corpus.value.files.find((f) => f.path === 'hydra/utils.py');
    mkdirSync(path.join(h.root, 'hydra'));
    writeFileSync(path.join(h.root, 'hydra/utils.py'), fileBytes(base as never));
    const s = h.newSession();
    const r = await prepareReplay(h.svc, s, HYDRA);
    if (!r.ok) throw new Error(r.error.message);
    const done = await r.value();
    expect(done.ok).toBe(true);
    expect(existsSync(path.join(h.root, 'hydra/_internal/utils.py'))).toBe(true);
    const v = h.svc.getSession(s);
    expect(v.ok && v.value.messages.length).toBeGreaterThan(0);
  }, 60_000);
});
