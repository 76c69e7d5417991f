/**
 * zlib on a second core for pack writing. deflate is most of a first track's work (~1.3 s of ~2.2 s on a
 * 20,500-file tree), and the walk (lstat, read, sha1, delta search) is synchronous, so a helper thread compresses
 * entry bodies while the walk goes on. Bodies travel in batches of BATCH_BYTES (a round trip per small body
 * would cost more than compressing it); when the helper is BACKLOG bytes behind, bodies are compressed inline,
 * so both cores stay busy.
 *
 * Protocol: batches go to the helper over a MessagePort (the batch's bodies copied once into one buffer, which is
 * moved, not cloned); compressed bodies come back the same way (one buffer and where each body ends), then the helper bumps a shared counter and
 * notifies it. The walk takes results without yielding to the event loop (`receiveMessageOnPort`) and, when it
 * must have one, sleeps on the counter (`Atomics.wait`) only while it still equals the batches received — the
 * helper posts before it counts, so no result is missed. A helper that gives no result for STALL_MS is treated
 * as dead and every outstanding body is compressed inline from the caller's bytes (held here until taken), so a
 * crashed helper costs time, never bytes. The helper is plain JavaScript run with `eval` (like
 * stat-prefetch.ts), unref'd, one per thread, started by the first body submitted.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { deflateSync } from 'node:zlib';

/** Bodies are sent to the helper in batches of at least this many bytes (a round trip costs ~10 µs). */
export const BATCH_BYTES = 64 << 10;
/**
 * Bytes queued on the helper above which a body is compressed inline instead: both cores stay busy and neither
 * waits for the other (~15 ms of helper work at level 6).
 */
const BACKLOG = 1 << 20;
/** A helper silent this long (ms) while work is outstanding is given up on. */
const STALL_MS = 10_000;

const HELPER = `
const { parentPort } = require('node:worker_threads');
const { deflateSync } = require('node:zlib');
parentPort.once('message', ({ port, sab }) => {
  const ctl = new Int32Array(sab);
  port.on('message', ({ ids, input, ends, level }) => {
    // The batch's bodies come in one buffer (ends: where each stops) and go back in one, moved, not copied.
    const parts = [];
    const out = new Uint32Array(ends.length);
    let total = 0;
    for (let i = 0, from = 0; i < ends.length; from = ends[i++]) {
      const z = deflateSync(new Uint8Array(input, from, ends[i] - from), { level });
      parts.push(z);
      total += z.length;
      out[i] = total;
    }
    const bodies = new Uint8Array(total);
    for (let i = 0, at = 0; i < parts.length; at += parts[i++].length) bodies.set(parts[i], at);
    port.postMessage({ ids, bodies: bodies.buffer, ends: out }, [bodies.buffer]);
    Atomics.add(ctl, 0, 1);
    Atomics.notify(ctl, 0);
  });
});
`;

/**
 * A compressed body as its own small allocation: `deflateSync` writes into 16 KiB chunks and hands back a view
 * of the first, so a 300-byte body held until its pack entry is flushed kept 16 KiB alive (bodies compressed
 * inline while the helper is behind are thousands per flush).
 */
function compact(z: Buffer): Buffer {
  return z.length < z.buffer.byteLength / 2 ? Buffer.from(z) : z;
}

/** `deflateSync` whose result holds only its own bytes (see `compact`). */
export function deflateBody(bytes: Uint8Array, level: number): Buffer {
  return compact(deflateSync(bytes, { level }));
}

interface Job {
  bytes: Uint8Array;
  level: number;
  body?: Buffer;
}

/** One thread's deflate helper; `sharedDeflater` is the instance the pack writer uses. */
export class Deflater {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private ctl: Int32Array | undefined;
  private dead = false;
  private nextId = 1;
  private readonly jobs = new Map<number, Job>();
  private inFlight = 0;
  private batch: { ids: number[]; bytes: Uint8Array[]; size: number; level: number } | undefined;
  /** Batches posted and batches received: nothing to collect while they are equal. */
  private posted = 0;
  private received = 0;

  /** `stallMs`: how long a silent helper is waited for before everything outstanding is compressed inline. */
  constructor(private readonly stallMs = STALL_MS) {}

  /** Starts the helper if needed; false when no thread can run (then everything is compressed inline). */
  private boot(): boolean {
    if (this.dead) return false;
    if (this.worker) return true;
    try {
      const sab = new SharedArrayBuffer(4);
      const { port1, port2 } = new MessageChannel();
      // Small young generation: the helper's garbage is short-lived buffers, collected often rather than piled up.
      this.worker = new Worker(HELPER, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
      this.worker.postMessage({ port: port2, sab }, [port2]);
      this.worker.unref();
      this.worker.on('error', () => this.giveUp());
      port1.unref();
      this.port = port1;
      this.ctl = new Int32Array(sab);
      this.posted = 0;
      this.received = 0;
    } catch {
      this.giveUp();
      return false;
    }
    return true;
  }

  /**
   * Compresses `bytes` at zlib `level`: on the helper (batched) when it is available and not behind by BACKLOG
   * bytes, else right now. Returns a ticket for `take`. `bytes` must stay unchanged until the ticket is
   * taken or forgotten: a body waits in a batch (and is kept for the inline fallback) by reference, copied only
   * when its batch is posted.
   */
  submit(bytes: Uint8Array, level: number): number {
    const id = this.nextId++;
    if (this.inFlight >= BACKLOG) this.collect();
    if (this.inFlight >= BACKLOG || !this.boot() || !this.port) {
      this.jobs.set(id, { bytes, level, body: deflateBody(bytes, level) });
      return id;
    }
    this.jobs.set(id, { bytes, level });
    this.inFlight += bytes.length;
    if (this.batch && this.batch.level !== level) this.send();
    this.batch ??= { ids: [], bytes: [], size: 0, level };
    this.batch.ids.push(id);
    this.batch.bytes.push(bytes);
    this.batch.size += bytes.length;
    if (this.batch.size >= BATCH_BYTES) this.send();
    return id;
  }

  /** Posts the pending batch to the helper (its bytes are copied). */
  private send(): void {
    const b = this.batch;
    this.batch = undefined;
    if (!b) return;
    if (!this.port) {
      for (const [i, id] of b.ids.entries()) {
        const job = this.jobs.get(id);
        if (job) job.body = deflateBody(b.bytes[i] as Uint8Array, b.level);
      }
      return;
    }
    // The bodies copied once into one buffer, moved to the helper (a plain post would serialise and copy twice;
    // a buffer per body was an allocation per body on both threads).
    const input = new Uint8Array(b.size);
    const ends = new Uint32Array(b.bytes.length);
    let at = 0;
    for (const [i, x] of b.bytes.entries()) {
      input.set(x, at);
      at += x.length;
      ends[i] = at;
    }
    this.port.postMessage({ ids: b.ids, input: input.buffer, ends, level: b.level }, [input.buffer]);
    this.posted++;
  }

  /** True when the body for `id` is ready (collects finished results without waiting). */
  ready(id: number): boolean {
    this.collect();
    return this.jobs.get(id)?.body !== undefined;
  }

  /** The compressed body for ticket `id`, waiting for the helper if needed. Each ticket is taken once. */
  take(id: number): Buffer {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`deflate ticket ${id} unknown or already taken`);
    if (job.body === undefined && this.batch?.ids.includes(id)) this.send();
    while (job.body === undefined && !this.dead) if (!this.waitOne()) break;
    const body = job.body ?? deflateBody(job.bytes, job.level);
    this.jobs.delete(id);
    return body;
  }

  /** Drops outstanding tickets (a pack was aborted); results still coming are discarded on arrival. */
  forget(ids: Iterable<number>): void {
    this.send();
    for (const id of ids) {
      const job = this.jobs.get(id);
      if (job && job.body === undefined) this.inFlight -= job.bytes.length;
      this.jobs.delete(id);
    }
  }

  private collect(): boolean {
    if (!this.port || !this.ctl) return false;
    let got = false;
    // The helper counts a batch after posting it: a count above what was received means a result is waiting.
    while (this.received < this.posted && Atomics.load(this.ctl, 0) > this.received) {
      const m = receiveMessageOnPort(this.port) as
        { message: { ids: number[]; bodies: ArrayBuffer; ends: Uint32Array } } | undefined;
      if (!m) return got;
      got = true;
      this.received++;
      const { ids, bodies, ends } = m.message;
      // Views into the batch's one buffer: entries are written in order, so it is let go soon after its last body.
      for (const [i, id] of ids.entries()) {
        const job = this.jobs.get(id);
        const from = i === 0 ? 0 : (ends[i - 1] as number);
        if (!job || job.body !== undefined || ends[i] === undefined) continue;
        job.body = Buffer.from(bodies, from, (ends[i] as number) - from);
        this.inFlight -= job.bytes.length;
      }
    }
    return got;
  }

  /**
   * Waits until at least one result arrives (or the helper is given up on). False when no result can come: no
   * helper, or nothing outstanding on it (a body posted to a helper that `close()` ended is never answered by
   * the next one, whose counts start again at 0) — the caller then compresses inline instead of spinning.
   */
  private waitOne(): boolean {
    const ctl = this.ctl;
    if (!ctl) return false;
    if (this.collect()) return true;
    if (this.received >= this.posted) return false;
    // Sleeps while the helper's count still equals what was received (a count bump after the check wakes it).
    if (Atomics.wait(ctl, 0, this.received, this.stallMs) === 'timed-out' && !this.collect()) {
      this.giveUp();
      return false;
    }
    return true;
  }

  private giveUp(): void {
    this.dead = true;
    this.batch = undefined;
    this.inFlight = 0;
    void this.worker?.terminate();
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
  }

  /** Terminates the helper thread (a later submit starts a new one). */
  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    this.ctl = undefined;
    this.inFlight = 0;
  }
}

/** The helper shared by every pack writer of this thread; it lives as long as the thread (unref'd). */
export const sharedDeflater = new Deflater();
