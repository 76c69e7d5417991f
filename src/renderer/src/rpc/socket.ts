/**
 * The web host's transport: the contract over one WebSocket to the page's own origin (the session cookie rides on
 * the upgrade). Implements the same `LandfallApi` as the Electron preload, so nothing above rpc/ knows which one
 * it has. A call made while the socket is down resolves to `unavailable` rather than hanging; the socket reconnects.
 */
import { CALL_NAMES, EVENT_NAMES } from '../../../shared/contract-names';
import type { EventName } from '../../../shared/contract-names';
import type { LandfallApi } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';

type Pending = (result: Result<unknown>) => void;

/** The contract over the socket, plus a signal for when the socket came back after a drop (events were missed). */
export type SocketApi = LandfallApi & { onReconnect(listener: () => void): () => void };

/** Opens the socket and returns the contract over it. */
export function createSocketApi(
  url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`,
): SocketApi {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const reconnectListeners = new Set<() => void>();
  let nextId = 1;
  let everOpened = false;
  let socket: WebSocket;
  let opened: Promise<boolean>;

  const connect = (): void => {
    socket = new WebSocket(url);
    opened = new Promise<boolean>((resolve) => {
      socket.addEventListener(
        'open',
        () => {
          if (everOpened) for (const l of reconnectListeners) l();
          everOpened = true;
          resolve(true);
        },
        { once: true },
      );
      socket.addEventListener('close', () => resolve(false), { once: true });
    });
    socket.addEventListener('message', (m: MessageEvent<string>) => receive(m.data));
    socket.addEventListener('close', () => {
      for (const [, settle] of pending)
        settle(
          fail(
            'unavailable',
            'The connection to Landfall closed.',
            'Check that `npm run serve` is still running, then retry.',
          ),
        );
      pending.clear();
      setTimeout(connect, 1000);
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

  connect();

  const invoke = async (call: string, input: unknown): Promise<Result<unknown>> => {
    if (!(await opened) || socket.readyState !== WebSocket.OPEN) {
      return fail(
        'unavailable',
        'Not connected to Landfall.',
        'Check that `npm run serve` is still running, then reload.',
      );
    }
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, call, input }));
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
