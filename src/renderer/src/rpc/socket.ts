/**
 * The web host's transport: the contract over one WebSocket to the page's own origin. Implements the same
 * `LandfallApi` as the Electron preload, so nothing above rpc/ knows which one it has.
 *
 * Signing in (src/shared/web-auth.ts, web-credential.ts): the credential comes from this origin's storage, or from
 * exchanging the one-time token of the URL fragment; it rides in the handshake as a subprotocol, never a cookie.
 * A call made while the socket is down resolves to `unavailable` rather than hanging, and the socket reconnects;
 * when the host refuses the credential (it restarted), calls resolve to `unauthorized` and it stops retrying.
 */
import { CALL_NAMES, EVENT_NAMES } from '../../../shared/contract-names';
import type { EventName } from '../../../shared/contract-names';
import type { LandfallApi } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import type { LandfallError, Result } from '../../../shared/errors';
import { APP_PROTOCOL, CREDENTIAL_PROTOCOL_PREFIX } from '../../../shared/web-auth';
import { credentialStillValid, forgetCredential, signIn } from './web-credential';

type Pending = (result: Result<unknown>) => void;

/** The contract over the socket, plus a signal for when the socket came back after a drop (events were missed). */
export type SocketApi = LandfallApi & { onReconnect(listener: () => void): () => void };

const DOWN = fail(
  'unavailable',
  'Not connected to Landfall.',
  'Check that `npm run serve` is still running, then reload.',
);
const CLOSED = fail(
  'unavailable',
  'The connection to Landfall closed.',
  'Check that `npm run serve` is still running, then retry.',
);
const SIGNED_OUT = fail(
  'unauthorized',
  'This page is not signed in to Landfall (the link was already used, or the host was restarted).',
  'Open the URL `npm run serve` printed, or get a new one: press Enter in its terminal (or kill -USR2 the pid it printed).',
);

/** Opens the socket and returns the contract over it. */
export function createSocketApi(
  url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
): SocketApi {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const reconnectListeners = new Set<() => void>();
  let nextId = 1;
  let everOpened = false;
  let refusal: { ok: false; error: LandfallError } | null = null;
  let socket: WebSocket | undefined;
  let opened: Promise<boolean>;

  const settleAll = (result: Result<unknown>): void => {
    for (const [, settle] of pending) settle(result);
    pending.clear();
  };

  /** After a socket closed: signed out (stop), or the host is away (retry in a second). */
  const afterClose = async (credential: string): Promise<void> => {
    const valid = await credentialStillValid(credential);
    if (valid === false) {
      forgetCredential();
      refusal = SIGNED_OUT;
      return settleAll(SIGNED_OUT);
    }
    setTimeout(() => connect(credential), 1000);
  };

  const connect = (credential: string): void => {
    const ws = new WebSocket(url, [APP_PROTOCOL, `${CREDENTIAL_PROTOCOL_PREFIX}${credential}`]);
    socket = ws;
    opened = new Promise<boolean>((resolve) => {
      ws.addEventListener(
        'open',
        () => {
          if (everOpened) for (const l of reconnectListeners) l();
          everOpened = true;
          resolve(true);
        },
        { once: true },
      );
      ws.addEventListener('close', () => resolve(false), { once: true });
    });
    ws.addEventListener('message', (m: MessageEvent<string>) => receive(m.data));
    ws.addEventListener('close', () => {
      settleAll(CLOSED);
      void afterClose(credential);
    });
  };

  const receive = (data: string): void => {
    const frame = JSON.parse(data) as { id?: number; result?: Result<unknown>; event?: { type: EventName } };
    if (frame.event) {
      const set = listeners.get(frame.event.type);
      if (set) for (const l of set) (l as (p: unknown) => void)(frame.event);
      return;
    }
    if (typeof frame.id === 'number' && frame.result) {
      pending.get(frame.id)?.(frame.result);
      pending.delete(frame.id);
    }
  };

  const ready: Promise<void> = signIn().then((credential) => {
    if (credential) connect(credential);
    else refusal = SIGNED_OUT;
  });

  const invoke = async (call: string, input: unknown): Promise<Result<unknown>> => {
    await ready;
    if (refusal) return refusal;
    if (!(await opened) || socket?.readyState !== WebSocket.OPEN) return refusal ?? DOWN;
    const id = nextId++;
    const open = socket;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      open.send(JSON.stringify({ id, call, input }));
    });
  };

  const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (input: unknown) => invoke(name, input)]));
  const events = Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      (listener: (payload: never) => void) => {
        let set = listeners.get(name);
        if (!set) listeners.set(name, (set = new Set()));
        set.add(listener);
        return () => void set.delete(listener);
      },
    ]),
  );
  const onReconnect = (listener: () => void): (() => void) => {
    reconnectListeners.add(listener);
    return () => void reconnectListeners.delete(listener);
  };
  return { calls, events, onReconnect } as unknown as SocketApi;
}
