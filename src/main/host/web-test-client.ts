/**
 * Test support (not used by the app): clients of the web host. `signIn` exchanges a one-time URL's token for a
 * credential as the page's script does; `openSocket` is a well-behaved WebSocket client; `rawSocket` speaks HTTP and
 * WebSocket by hand over node:net so a test can send frames no library would build (bad opcodes, unmasked,
 * oversized, cut in the middle) and read exactly what the host answers.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import { APP_PROTOCOL, CREDENTIAL_PROTOCOL_PREFIX, EXCHANGE_PATH } from '../../shared/web-auth';

/** Exchanges the token of `url` (`…/#token=T`) for a credential; throws when the host refuses. */
export async function signIn(url: string): Promise<string> {
  const u = new URL(url);
  const token = new URLSearchParams(u.hash.slice(1)).get('token');
  const r = await fetch(new URL(EXCHANGE_PATH, u.origin), {
    method: 'POST',
    headers: { origin: u.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const body = (await r.json()) as { ok: boolean; value?: { credential: string } };
  if (!body.ok || !body.value) throw new Error(`sign-in refused: ${r.status}`);
  return body.value.credential;
}

/** The subprotocol list a page offers with `credential`. */
export function protocolsFor(credential: string): string[] {
  return [APP_PROTOCOL, `${CREDENTIAL_PROTOCOL_PREFIX}${credential}`];
}

/** A WebSocket to the host (`protocols` and `headers` as given); resolves once open, or to the refusing status. */
export function openSocket(
  port: number,
  protocols: string[],
  headers: Record<string, string> = { origin: `http://127.0.0.1:${port}` },
): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, protocols, { headers });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

/** Sends one call on an open socket and resolves to its result. */
export function callOn(ws: WebSocket, call: string, input: unknown): Promise<{ ok: boolean; value?: unknown }> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const frame = JSON.parse(data.toString('utf8')) as { id?: number; result?: { ok: boolean } };
      if (frame.id !== id || !frame.result) return;
      ws.off('message', onMessage);
      resolve(frame.result);
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, call, input }));
  });
}

/** One WebSocket frame built by hand. `length` overrides the announced payload length (for lies). */
export function frame(o: {
  opcode: number;
  payload?: Buffer;
  fin?: boolean;
  rsv1?: boolean;
  mask?: boolean;
  length?: number;
}): Buffer {
  const payload = o.payload ?? Buffer.alloc(0);
  const length = o.length ?? payload.length;
  const mask = o.mask !== false;
  const head: number[] = [(o.fin === false ? 0 : 0x80) | (o.rsv1 ? 0x40 : 0) | (o.opcode & 0x0f)];
  const m = mask ? 0x80 : 0;
  if (length < 126) head.push(m | length);
  else if (length < 65536) head.push(m | 126, length >> 8, length & 0xff);
  else {
    head.push(m | 127);
    const big = Buffer.alloc(8);
    big.writeBigUInt64BE(BigInt(length));
    head.push(...big);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ (key[i % 4] as number)));
  return Buffer.concat([Buffer.from(head), key, masked]);
}

/** A raw TCP connection to the host: what it received so far, and when it ended. */
export interface RawSocket {
  socket: Socket;
  received(): Buffer;
  /** Resolves when the host closed the connection (or after the socket ended for any reason). */
  ended: Promise<void>;
}

/** Connects and writes `request` (a handshake or any bytes); resolves once connected. */
export function rawSocket(port: number, request: string | Buffer): Promise<RawSocket> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => undefined);
    const ended = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => {
      socket.write(request);
      resolve({ socket, received: () => Buffer.concat(chunks), ended });
    });
  });
}

/** The hand-written upgrade request of a page of this host, presenting `credential`. */
export function upgradeRequest(port: number, credential: string, extra: Record<string, string> = {}): string {
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    'Sec-WebSocket-Version': '13',
    Origin: `http://127.0.0.1:${port}`,
    'Sec-WebSocket-Protocol': protocolsFor(credential).join(', '),
    ...extra,
  };
  return `GET /ws HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

/** Waits until the host's bytes include the end of its response head; throws unless it was 101 (upgraded). */
export async function afterHandshake(raw: RawSocket): Promise<void> {
  for (;;) {
    if (raw.received().includes('\r\n\r\n')) {
      if (!raw.received().subarray(0, 12).toString().includes('101')) throw new Error('upgrade refused');
      return;
    }
    await new Promise<void>((r) => raw.socket.once('data', () => r()));
  }
}

/** The server frames in `bytes` after the HTTP response head: opcode, and for a close frame its status code. */
export function serverFrames(bytes: Buffer): { opcode: number; code?: number; text?: string }[] {
  const start = bytes.indexOf('\r\n\r\n');
  let i = start < 0 ? bytes.length : start + 4;
  const out: { opcode: number; code?: number; text?: string }[] = [];
  while (i + 2 <= bytes.length) {
    const opcode = (bytes[i] as number) & 0x0f;
    let len = (bytes[i + 1] as number) & 0x7f;
    let at = i + 2;
    if (len === 126) {
      len = bytes.readUInt16BE(at);
      at += 2;
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(at));
      at += 8;
    }
    if (at + len > bytes.length) break;
    const payload = bytes.subarray(at, at + len);
    out.push(
      opcode === 8
        ? { opcode, ...(payload.length >= 2 ? { code: payload.readUInt16BE(0) } : {}) }
        : { opcode, text: payload.toString('utf8') },
    );
    i = at + len;
  }
  return out;
}
