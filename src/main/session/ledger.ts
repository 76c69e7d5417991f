/**
 * The request ledger: every model request of a turn as it was sent (system text, tool definitions, messages) with
 * the provider's reported usage, in the session database, with the step it belongs to.
 *
 * Storage: a request is mostly the request before it plus what was appended, so each piece (the system text, the
 * tool list, every message) is stored once per session in `ledger_blobs`, keyed by the SHA-256 of its JSON, with
 * its token estimate computed once; a `ledger` row lists the hashes in order. A 300-step session therefore stores
 * each message once, not 300 times. Rows and blobs are deleted with their session.
 */
import { createHash } from 'node:crypto';
import type { Db } from './db';

/** Tokens the provider reported for one request (undefined where it reported nothing). */
export interface LedgerUsage {
  input?: number;
  cachedInput?: number;
  output?: number;
}

/** One request to record: the pieces as sent, in order. */
export interface LedgerRequest {
  messageId: string;
  /** 1-based step of the turn (assistant message) the request belongs to. */
  step: number;
  /** `provider:model` that was asked. */
  model: string;
  system: string;
  tools: unknown[];
  messages: unknown[];
}

/** A stored piece: its hash, its JSON text and its token estimate. */
export interface LedgerBlob {
  hash: string;
  json: string;
  tokens: number;
}

/** A ledger row with its pieces resolved. `seq` is the request's number in the session, from 1. */
export interface LedgerEntry {
  seq: number;
  messageId: string;
  step: number;
  time: number;
  model: string;
  system: LedgerBlob;
  tools: LedgerBlob;
  messages: LedgerBlob[];
  usage?: LedgerUsage;
}

interface Row {
  seq: number;
  message_id: string;
  step: number;
  time: number;
  model: string;
  system: string;
  tools: string;
  messages: string;
  usage: string | null;
}

/** SHA-256 of `json`, hex, first 32 characters (128 bits: collisions are not a practical concern). */
function hashOf(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 32);
}

/**
 * The ledger of one database. `tokensOf(value)` estimates the tokens of a piece (called once per new piece; the
 * agent's context layer passes its estimator, so the session layer needs no tokenizer of its own).
 */
export class RequestLedger {
  /** Hashes known to be stored, per session (saves a lookup per piece of every request). */
  private readonly known = new Map<string, Set<string>>();

  constructor(
    private readonly db: Db,
    private readonly tokensOf: (kind: 'system' | 'tools' | 'message', value: unknown) => number,
  ) {}

  private put(sessionId: string, kind: 'system' | 'tools' | 'message', value: unknown): string {
    const json = JSON.stringify(value);
    const hash = hashOf(json);
    let set = this.known.get(sessionId);
    if (!set) this.known.set(sessionId, (set = new Set()));
    if (set.has(hash)) return hash;
    const exists = this.db.prepare('SELECT 1 FROM ledger_blobs WHERE session_id = ? AND hash = ?').get(sessionId, hash);
    if (!exists)
      this.db
        .prepare('INSERT INTO ledger_blobs (session_id, hash, json, tokens) VALUES (?, ?, ?, ?)')
        .run(sessionId, hash, json, this.tokensOf(kind, value));
    set.add(hash);
    return hash;
  }

  /** Record a request before it is sent; returns its row id (for `setUsage`). One transaction. */
  record(sessionId: string, req: LedgerRequest): number {
    return this.db.transaction(() => {
      const system = this.put(sessionId, 'system', req.system);
      const tools = this.put(sessionId, 'tools', req.tools);
      const messages = req.messages.map((m) => this.put(sessionId, 'message', m));
      const info = this.db
        .prepare(
          'INSERT INTO ledger (session_id, message_id, step, time, model, system, tools, messages, usage) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)',
        )
        .run(sessionId, req.messageId, req.step, Date.now(), req.model, system, tools, JSON.stringify(messages));
      return Number(info.lastInsertRowid);
    })();
  }

  /** Store the provider's usage for the request `rowId` (when its stream finished). */
  setUsage(rowId: number, usage: LedgerUsage): void {
    this.db.prepare('UPDATE ledger SET usage = ? WHERE seq = ?').run(JSON.stringify(usage), rowId);
  }

  /** Number of requests recorded for the session. */
  count(sessionId: string): number {
    const r = this.db.prepare('SELECT COUNT(*) AS n FROM ledger WHERE session_id = ?').get(sessionId) as { n: number };
    return r.n;
  }

  /** The `n`th request of the session (1-based), or undefined. */
  entry(sessionId: string, n: number): LedgerEntry | undefined {
    if (!Number.isInteger(n) || n < 1) return undefined;
    const row = this.db
      .prepare('SELECT * FROM ledger WHERE session_id = ? ORDER BY seq LIMIT 1 OFFSET ?')
      .get(sessionId, n - 1) as Row | undefined;
    return row ? this.resolve(sessionId, row, n) : undefined;
  }

  /** Every request of the session, oldest first (pieces resolved; a blob shared by requests is read once). */
  entries(sessionId: string): LedgerEntry[] {
    const rows = this.db.prepare('SELECT * FROM ledger WHERE session_id = ? ORDER BY seq').all(sessionId) as Row[];
    const cache = new Map<string, LedgerBlob>();
    return rows.map((r, i) => this.resolve(sessionId, r, i + 1, cache));
  }

  private blob(sessionId: string, hash: string, cache: Map<string, LedgerBlob>): LedgerBlob {
    const hit = cache.get(hash);
    if (hit) return hit;
    const r = this.db
      .prepare('SELECT json, tokens FROM ledger_blobs WHERE session_id = ? AND hash = ?')
      .get(sessionId, hash) as { json: string; tokens: number } | undefined;
    const b: LedgerBlob = { hash, json: r?.json ?? 'null', tokens: r?.tokens ?? 0 };
    cache.set(hash, b);
    return b;
  }

  private resolve(sessionId: string, r: Row, seq: number, cache = new Map<string, LedgerBlob>()): LedgerEntry {
    const e: LedgerEntry = {
      seq,
      messageId: r.message_id,
      step: r.step,
      time: r.time,
      model: r.model,
      system: this.blob(sessionId, r.system, cache),
      tools: this.blob(sessionId, r.tools, cache),
      messages: (JSON.parse(r.messages) as string[]).map((h) => this.blob(sessionId, h, cache)),
    };
    if (r.usage !== null) e.usage = JSON.parse(r.usage) as LedgerUsage;
    return e;
  }
}
