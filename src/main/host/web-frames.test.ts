/**
 * The web host survives every frame a client can send (real host, real services, hand-built frames over node:net):
 * oversized lengths, reserved opcodes, bad UTF-8, unmasked frames, broken fragments, frames cut in the middle,
 * bytes that are not HTTP at all. Each offending client gets a typed close code (or a typed error for a valid
 * frame that is not a call) and, after each attempt, another client still gets answers. Attempts / held printed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WebSocket } from 'ws';
import { WS_MAX_FRAME_BYTES } from '../../shared/limits';
import { servicesFixture, type ServicesFixture } from './services-fixture';
import { startWebHost, type WebHost } from './web';
import {
  afterHandshake,
  callOn,
  frame,
  openSocket,
  protocolsFor,
  rawSocket,
  serverFrames,
  signIn,
  upgradeRequest,
} from './web-test-client';

let f: ServicesFixture;
let host: WebHost;
let credential: string;
let witness: WebSocket;

beforeAll(async () => {
  f = await servicesFixture('frames', { languageServers: false });
  const staticDir = await mkdtemp(join(f.temp, 'static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ router: f.router, subscribe: f.services.subscribe, staticDir });
  credential = await signIn(host.url);
  const ws = await openSocket(host.port, protocolsFor(credential));
  if (typeof ws === 'number') throw new Error(`witness refused: ${ws}`);
  witness = ws;
});

afterAll(async () => {
  witness?.close();
  await host?.close();
  await f?.close();
});

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const closeCode = (code: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(code);
  return b;
};

/** What the host must answer: a close frame with `close`, or a text frame holding `error` (a contract code). */
type Expect = { close: number } | { error: string } | { dropped: true };

const ATTEMPTS: { name: string; bytes: Buffer; expect: Expect }[] = [
  {
    name: 'announced length over the frame limit (64-bit length, 4 bytes sent)',
    bytes: Buffer.concat([frame({ opcode: 1, length: WS_MAX_FRAME_BYTES + 1 }).subarray(0, 14), text('abcd')]),
    expect: { close: 1009 },
  },
  {
    name: 'fragments that together pass the frame limit',
    bytes: Buffer.concat([
      frame({ opcode: 1, fin: false, payload: Buffer.alloc(WS_MAX_FRAME_BYTES / 2, 0x61) }),
      frame({ opcode: 0, fin: false, payload: Buffer.alloc(WS_MAX_FRAME_BYTES / 2, 0x61) }),
      frame({ opcode: 0, payload: text('a') }),
    ]),
    expect: { close: 1009 },
  },
  { name: 'reserved data opcode 0x3', bytes: frame({ opcode: 3, payload: text('x') }), expect: { close: 1002 } },
  { name: 'reserved control opcode 0xB', bytes: frame({ opcode: 0xb }), expect: { close: 1002 } },
  {
    name: 'text frame with bad UTF-8',
    bytes: frame({ opcode: 1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
    expect: { close: 1007 },
  },
  {
    name: 'UTF-8 cut across two fragments into an invalid sequence',
    bytes: Buffer.concat([
      frame({ opcode: 1, fin: false, payload: Buffer.from([0xe2, 0x82]) }),
      frame({ opcode: 0, payload: Buffer.from([0x41]) }),
    ]),
    expect: { close: 1007 },
  },
  {
    name: 'unmasked client frame',
    bytes: frame({ opcode: 1, payload: text('{}'), mask: false }),
    expect: { close: 1002 },
  },
  {
    name: 'RSV1 set with no extension agreed',
    bytes: frame({ opcode: 1, payload: text('{}'), rsv1: true }),
    expect: { close: 1002 },
  },
  {
    name: 'continuation with nothing to continue',
    bytes: frame({ opcode: 0, payload: text('x') }),
    expect: { close: 1002 },
  },
  {
    name: 'a new text frame in the middle of a fragmented message',
    bytes: Buffer.concat([
      frame({ opcode: 1, fin: false, payload: text('{"id":') }),
      frame({ opcode: 1, payload: text('1}') }),
    ]),
    expect: { close: 1002 },
  },
  { name: 'fragmented ping', bytes: frame({ opcode: 9, fin: false, payload: text('p') }), expect: { close: 1002 } },
  { name: 'ping over 125 bytes', bytes: frame({ opcode: 9, payload: Buffer.alloc(126, 1) }), expect: { close: 1002 } },
  {
    name: 'close with a reserved status code',
    bytes: frame({ opcode: 8, payload: closeCode(1005) }),
    expect: { close: 1002 },
  },
  { name: 'close with a 1-byte body', bytes: frame({ opcode: 8, payload: Buffer.from([3]) }), expect: { close: 1002 } },
  {
    name: 'a valid binary frame',
    bytes: frame({ opcode: 2, payload: text('{"id":1}') }),
    expect: { error: 'invalid_input' },
  },
  {
    name: 'a valid text frame that is not JSON',
    bytes: frame({ opcode: 1, payload: text('not json') }),
    expect: { error: 'invalid_input' },
  },
  {
    name: 'a call with a hostile name',
    bytes: frame({ opcode: 1, payload: text('{"id":2,"call":{"toString":1}}') }),
    expect: { error: 'unknown_call' },
  },
  {
    name: 'a frame cut in the middle, then the connection ends',
    bytes: frame({ opcode: 1, payload: Buffer.alloc(1000, 0x61) }).subarray(0, 300),
    expect: { dropped: true },
  },
];

/** Sends `bytes` after a good handshake; resolves to what the host sent back once it closed (or answered). */
async function attempt(bytes: Buffer, expect: Expect): Promise<{ opcode: number; code?: number; text?: string }[]> {
  const raw = await rawSocket(host.port, upgradeRequest(host.port, credential));
  await afterHandshake(raw);
  raw.socket.write(bytes);
  if ('dropped' in expect) raw.socket.end();
  else if ('error' in expect) {
    while (!serverFrames(raw.received()).some((x) => x.opcode === 1))
      await new Promise<void>((r) => raw.socket.once('data', () => r()));
    raw.socket.destroy();
  }
  await raw.ended;
  return serverFrames(raw.received());
}

describe('the host survives every frame', () => {
  test('each hostile frame gets a typed answer and the host keeps answering another client', async () => {
    let held = 0;
    const failures: string[] = [];
    for (const a of ATTEMPTS) {
      const frames = await attempt(a.bytes, a.expect);
      const close = frames.find((x) => x.opcode === 8);
      const reply = frames.find((x) => x.opcode === 1);
      const answered =
        'close' in a.expect
          ? close?.code === a.expect.close
          : 'error' in a.expect
            ? (JSON.parse(reply?.text ?? '{}') as { result?: { error?: { code?: string } } }).result?.error?.code ===
              a.expect.error
            : true;
      const alive = (await callOn(witness, 'app.info', {})).ok;
      if (answered && alive) held++;
      else failures.push(`${a.name}: ${JSON.stringify(frames)} alive=${alive}`);
    }
    console.log(`[hostile] web host frames: ${ATTEMPTS.length} attempts / ${held} held`);
    expect(failures).toEqual([]);
    expect(held).toBe(ATTEMPTS.length);
  }, 60_000);

  test('bytes that are not HTTP, a bad handshake, a reset mid-upgrade: refused, the host stays up', async () => {
    const cases: (string | Buffer)[] = [
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01]), // a TLS hello on a plain port
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: nope\r\n\r\n',
      upgradeRequest(host.port, credential, { 'Sec-WebSocket-Version': '7' }),
      upgradeRequest(host.port, credential, { 'Sec-WebSocket-Key': 'short' }),
      upgradeRequest(host.port, credential).slice(0, 40),
    ];
    let held = 0;
    for (const bytes of cases) {
      const raw = await rawSocket(host.port, bytes);
      if (typeof bytes === 'string' && bytes.length === 40) raw.socket.destroy();
      else raw.socket.end();
      await raw.ended;
      const status = raw.received().subarray(0, 12).toString();
      const refused = raw.received().length === 0 || /^HTTP\/1\.1 4\d\d/.test(status);
      if (refused && (await callOn(witness, 'app.info', {})).ok) held++;
    }
    console.log(`[hostile] web host handshakes: ${cases.length} attempts / ${held} held`);
    expect(held).toBe(cases.length);
  });
});
