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
import { openDb, SCHEMA_VERSION } from './db';
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

describe('prepared statements are kept per connection (db.ts keepStatements)', () => {
  it('the same text gives the same statement; one busy iterating gives a fresh one; results stay exact', () => {
    const db = openDb(path.join(dataDir(), 'landfall.db'));
    try {
      db.exec('CREATE TABLE t (n INTEGER)');
      const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
      for (let n = 1; n <= 3; n++) expect(db.prepare('INSERT INTO t (n) VALUES (?)')).toBe(insert);
      for (let n = 1; n <= 3; n++) insert.run(n);
      const sql = 'SELECT n FROM t ORDER BY n';
      const seen: number[][] = [];
      for (const row of db.prepare(sql).iterate() as Iterable<{ n: number }>)
        // the statement is busy here: the same text inside the loop is another statement, and gives every row
        seen.push([row.n, ...(db.prepare(sql).all() as { n: number }[]).map((r) => r.n)]);
      expect(seen).toEqual([
        [1, 1, 2, 3],
        [2, 1, 2, 3],
        [3, 1, 2, 3],
      ]);
      // a schema change after a statement was kept: it is prepared again by SQLite and sees the new column
      expect(db.prepare('SELECT * FROM t ORDER BY n').get()).toEqual({ n: 1 });
      db.exec('ALTER TABLE t ADD COLUMN m INTEGER DEFAULT 7');
      expect(db.prepare('SELECT * FROM t ORDER BY n').get()).toEqual({ n: 1, m: 7 });
    } finally {
      db.close();
    }
  });
});
