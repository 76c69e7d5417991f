/**
 * Answers typed on the terminal (or piped in) for `landfall run`'s permission questions, with type-ahead thrown
 * away: a line typed (or written into the pipe) before a question was printed never answers it — a stray `o`
 * sent for an earlier question must not allow a later `rm -rf build`. Before each question, everything already
 * received is dropped: what the stream delivered so far, and (when stdin is not a terminal) whatever still sits
 * in the pipe or file, read without waiting. The caller prints how many characters were dropped.
 */
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';

type Input = Readable & { fd?: number; isTTY?: boolean };

/** Line reader over one input stream (see the module docstring). Call `close()` so the process can exit. */
export class TerminalInput {
  private buffer = '';
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly onData = (d: Buffer | string): void => {
    this.buffer += typeof d === 'string' ? d : d.toString('utf8');
    this.wake?.();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.wake?.();
  };

  constructor(private readonly input: Input) {
    input.on('data', this.onData);
    input.on('end', this.onEnd);
    input.on('error', this.onEnd);
    input.resume();
  }

  /** Bytes still waiting in the pipe or file behind a non-terminal stdin, read without blocking. */
  private drainWaiting(): string {
    if (this.input.isTTY || typeof this.input.fd !== 'number') return '';
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = readSync(this.input.fd, buf, 0, buf.length, null);
      } catch {
        break; // EAGAIN: nothing more is waiting (the pipe is non-blocking); any other error: nothing to read
      }
      if (n <= 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** Drop everything received before now; returns how many characters were dropped. */
  discardTypeAhead(): number {
    const dropped = this.buffer + this.drainWaiting();
    this.buffer = '';
    return [...dropped].length;
  }

  /** The next line (without its line break, trimmed), or undefined when the input ended first. */
  async line(): Promise<string | undefined> {
    for (;;) {
      const nl = this.buffer.indexOf('\n');
      if (nl >= 0) {
        const text = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        return text.trim();
      }
      if (this.ended) {
        const rest = this.buffer.trim();
        this.buffer = '';
        return rest === '' ? undefined : rest;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  /** Stop reading (the process may exit). */
  close(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onEnd);
    this.input.pause();
  }
}
