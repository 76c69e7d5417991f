/**
 * Opening a session database that cannot be used: a file that is not SQLite (damaged, or something else), and a
 * database written by a newer Landfall. Both are expected situations for a desktop app: AgentService.open answers
 * with a typed error naming the file and the next step, and the file's bytes are left exactly as they were.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentService } from '../agent/service';
import { SCHEMA_VERSION } from './db';
import { SessionStore } from './store';
import { cleanupTemp, tempDir } from '../agent/testing/fixtures';

const dirs: string[] = [];
afterEach(() => cleanupTemp(...dirs.splice(0)));

function dataDir(): string {
  const d = tempDir('db');
  dirs.push(d);
  return d;
}

describe('opening an unusable session database', () => {
  it('a file that is not a database: io_error naming the file, bytes untouched', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'landfall.db');
    const garbage = Buffer.from('this is not sqlite at all, just text that someone saved here\n'.repeat(200));
    writeFileSync(file, garbage);
    const opened = await AgentService.open({ dataDir: dir });
    expect(opened.ok ? 'opened' : opened.error.code).toBe('io_error');
    if (!opened.ok) {
      expect(opened.error.message).toContain(file);
      expect(opened.error.hint).toMatch(/move it aside/i);
    }
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('a database from a newer Landfall: unavailable, nothing migrated or rewritten', async () => {
    const dir = dataDir();
    const file = path.join(dir, 'landfall.db');
    const store = SessionStore.open(file);
    store.upsertProject('/p', 'p');
    store.close();
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(file);
    const opened = await AgentService.open({ dataDir: dir });
    expect(opened.ok ? 'opened' : opened.error.code).toBe('unavailable');
    if (!opened.ok) expect(opened.error.message).toMatch(/newer/);
    expect(readFileSync(file).equals(before)).toBe(true);
    const check = new Database(file, { readonly: true });
    expect(check.pragma('journal_mode', { simple: true })).toBe('delete');
    expect((check.prepare('SELECT root FROM projects').all() as { root: string }[]).map((r) => r.root)).toEqual(['/p']);
    check.close();
  });
});
