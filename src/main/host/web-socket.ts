/**
 * One admitted WebSocket: contract calls in, answers and pushed events out (wire format in web.ts). Nothing a
 * client sends can stop the host: a protocol error (oversized message, bad opcode, bad UTF-8, unmasked frame,
 * broken fragments) is caught here — `ws` then closes that socket with the typed close code (1009 too big, 1002
 * protocol error, 1007 bad UTF-8) — and a frame that is valid WebSocket but not a call (binary, not JSON) is
 * answered with `invalid_input`.
 */
import type { WebSocket } from 'ws';
import type { AnyEvent } from '../../shared/contract';
import { fail } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Router } from './router';

function reply(ws: WebSocket, id: string | number | null, result: Result<unknown>): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }));
}

async function answer(ws: WebSocket, router: Router, text: string): Promise<void> {
  let frame: { id?: unknown; call?: unknown; input?: unknown };
  try {
    frame = JSON.parse(text) as typeof frame;
  } catch {
    return reply(ws, null, fail('invalid_input', 'The frame is not JSON.', 'Send { id, call, input } as JSON.'));
  }
  const id = typeof frame?.id === 'number' || typeof frame?.id === 'string' ? frame.id : null;
  reply(ws, id, await router.handle(frame?.call, frame?.input));
}

/**
 * Serves one socket: every message goes to `router`, every event from `subscribe` is pushed. `onProblem` hears
 * the socket's errors (for a log); it is never needed for the host to survive them.
 */
export function attachSocket(
  ws: WebSocket,
  router: Router,
  subscribe: (listener: (event: AnyEvent) => void) => () => void,
  onProblem: (error: Error) => void = () => {},
): void {
  ws.on('error', onProblem);
  const unsubscribe = subscribe((event) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event }));
  });
  ws.on('close', unsubscribe);
  ws.on('message', (data, isBinary) => {
    if (isBinary)
      return reply(
        ws,
        null,
        fail('invalid_input', 'Binary frames are not accepted.', 'Send each call as a JSON text frame.'),
      );
    void answer(ws, router, Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  });
}
