/**
 * The session store on real SQLite files: migrations by version, events written in the same transaction as the
 * rows (a rolled-back change leaves neither rows nor events nor a sequence gap), cascades, crash recovery, and
 * export / import of a session as one JSON document.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import { coreEventSchema } from '../../shared/events';
import { SCHEMA_VERSION } from './db';
import { SessionStore } from './store';
import { cleanupTemp, harness, scripted, tempDir } from '../agent/testing/fixtures';
import type { Harness } from '../agent/testing/fixtures';

const dirs: string[] = [];
afterEach(() => cleanupTemp(...dirs.splice(0)));

function fresh(onEvent?: (e: CoreEvent) => void): { store: SessionStore; file: string } {
  const dir = tempDir('store');
  dirs.push(dir);
  const file = path.join(dir, 'landfall.db');
  return { store: SessionStore.open(file, onEvent), file };
}

function seqs(store: SessionStore): number[] {
  return (store.db.prepare('SELECT seq FROM events ORDER BY seq').all() as { seq: number }[]).map((r) => r.seq);
}

describe('SessionStore', () => {
  it('runs migrations once, in WAL mode, and refuses a newer schema', () => {
    const { store, file } = fresh();
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.upsertProject('/p', 'p');
    store.close();
    const again = SessionStore.open(file);
    expect(again.listProjects().map((p) => p.root)).toEqual(['/p']);
    again.close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => SessionStore.open(file)).toThrow(/newer than this Landfall/);
  });

  it('writes each event in the same transaction as its rows; a rollback leaves no rows, no events, no gap', () => {
    const emitted: CoreEvent[] = [];
    const { store } = fresh((e) => emitted.push(e));
    const p = store.upsertProject('/p', 'p');
    const s = store.createSession(p.id, 't');
    expect(() =>
      store.tx(() => {
        store.addMessage(s.id, 'user', 'hello');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.messages(s.id)).toEqual([]);
    expect(emitted.map((e) => e.type)).toEqual(['session.updated']);
    store.tx(() => {
      expect(() =>
        store.tx(() => {
          store.addMessage(s.id, 'user', 'inner');
          throw new Error('inner');
        }),
      ).toThrow('inner');
      store.addMessage(s.id, 'user', 'outer');
    });
    expect(store.messages(s.id).map((x) => store.messageText(x.id))).toEqual(['outer']);
    const m = store.addMessage(s.id, 'user', 'again');
    expect(seqs(store)).toEqual([1, 2, 3]);
    expect(emitted.map((e) => ('seq' in e ? e.seq : 0))).toEqual([1, 2, 3]);
    for (const e of emitted) expect(coreEventSchema.safeParse(e).success).toBe(true);
    expect(store.messageText(m.id)).toBe('again');
    store.close();
  });

  it('deleting a session cascades to messages and parts; the event log keeps its history', () => {
    const { store } = fresh();
    const p = store.upsertProject('/p', 'p');
    const s = store.createSession(p.id, 't');
    const m = store.addMessage(s.id, 'assistant');
    store.putPart({ id: 'prt_1', sessionId: s.id, messageId: m.id, time: 1, type: 'text', text: 'x' });
    store.deleteSession(s.id);
    expect(store.db.prepare('SELECT count(*) AS n FROM parts').get()).toEqual({ n: 0 });
    expect(store.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
    expect(seqs(store)).toEqual([1, 2, 3, 4]);
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    store.close();
  });

  it('on open, a tool part left running becomes error: interrupted (never re-run)', () => {
    const { store, file } = fresh();
    const p = store.upsertProject('/p', 'p');
    const s = store.createSession(p.id, 't');
    const m = store.addMessage(s.id, 'assistant');
    store.putPart({
      id: 'prt_t',
      sessionId: s.id,
      messageId: m.id,
      time: 1,
      type: 'tool',
      tool: 'bash',
      callId: 'c',
      state: 'running',
      input: { command: 'make' },
    });
    store.close();
    // while another live process has the database open, its running tools are not touched
    writeFileSync(`${file}.owner`, `${process.ppid}\n`);
    const watcher = SessionStore.open(file);
    const untouched = watcher.messages(s.id)[0]?.parts[0];
    expect(untouched?.type === 'tool' && untouched.state).toBe('running');
    watcher.close();
    rmSync(`${file}.owner`);
    const again = SessionStore.open(file);
    const part = again.messages(s.id)[0]?.parts[0];
    expect(part?.type === 'tool' && [part.state, part.error?.code]).toEqual(['error', 'interrupted']);
    expect(part?.type === 'tool' && part.input).toEqual({ command: 'make' });
    again.close();
  });
});

describe('export / import', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('round-trips a session as one JSON document with fresh ids', async () => {
    h = await harness();
    const s = h.newSession('exported');
    await h.svc.runWithModel(
      s,
      scripted([[{ callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } }]]),
      'make a.txt',
    );
    const doc = h.svc.exportSession(s);
    if (!doc.ok) throw new Error(doc.error.message);
    const json = JSON.stringify(doc.value);
    const imported = h.svc.importSession(h.projectId, json);
    if (!imported.ok) throw new Error(imported.error.message);
    expect(imported.value.id).not.toBe(s);
    expect(imported.value.title).toBe('exported');
    const a = h.svc.getSession(s);
    const b = h.svc.getSession(imported.value.id);
    if (!a.ok || !b.ok) throw new Error('missing');
    const shape = (v: typeof a.value) =>
      v.messages.map((m) => [m.role, m.parts.map((p) => (p.type === 'tool' ? `${p.tool}:${p.state}` : p.type))]);
    expect(shape(b.value)).toEqual(shape(a.value));
    expect(h.svc.store.messageText(b.value.messages[0]?.id as string)).toBe('make a.txt');
    const bad = h.svc.importSession(h.projectId, '{"format":"other"}');
    expect(!bad.ok && bad.error.code).toBe('invalid_input');
  });

  it('a session imported where its snapshots are unknown answers revert with an error, never a throw', async () => {
    h = await harness();
    const s = h.newSession('exported');
    await h.svc.runWithModel(
      s,
      scripted([[{ callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } }]]),
      'make a.txt',
    );
    const doc = h.svc.exportSession(s);
    const other = await harness();
    try {
      const imported = other.svc.importSession(other.projectId, doc.ok ? doc.value : {});
      if (!imported.ok) throw new Error(imported.error.message);
      const first = other.svc.getSession(imported.value.id);
      const rv = await other.svc.revert(imported.value.id, first.ok ? (first.value.messages[0]?.id as string) : '');
      expect(rv.ok).toBe(false);
      expect(!rv.ok && rv.error.code).toBe('not_found');
    } finally {
      await other.close();
    }
  });
});
