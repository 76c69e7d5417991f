/**
 * The renderer's only door to main, and the ONLY file that touches `window.landfall` (DESIGN §10): the Electron
 * preload's bridge when present, otherwise the web host's WebSocket. Stores call `call()` / `on()`; they never
 * learn which transport carries them.
 */
import type { CallName, CallInput, CallResult, EventName, EventPayload, LandfallApi } from '../../../shared/contract';
import { createSocketApi } from './socket';
import type { SocketApi } from './socket';

declare global {
  interface Window {
    landfall?: LandfallApi;
  }
}

let api: LandfallApi | SocketApi | undefined;

function current(): LandfallApi | SocketApi {
  api ??= window.landfall ?? createSocketApi();
  return api;
}

/**
 * Runs `listener` when the transport reconnected after a drop (the web host's socket; IPC never drops), so the
 * stores can reload what pushed events they missed would have told them.
 */
export function onReconnect(listener: () => void): () => void {
  const a = current();
  return 'onReconnect' in a ? a.onReconnect(listener) : () => {};
}

/** Makes one contract call. Resolves to a Result; expected failures are data, never a rejection. */
export function call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallResult<N>> {
  return current().calls[name](input);
}

/** Subscribes to one event; returns the unsubscribe function. */
export function on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void {
  return current().events[name](listener);
}
