/**
 * Preload: exposes exactly the contract as `window.landfall` — one function per call and one subscription per
 * event — and never ipcRenderer itself (DESIGN §10, after VS Code's sandbox preload). It imports only the plain
 * name lists: a sandboxed preload cannot load packages such as zod; main validates every input anyway.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { CALL_NAMES, EVENT_NAMES, EVENT_CHANNEL, callChannel } from '../shared/contract-names';
import type { EventName } from '../shared/contract-names';

type Listener = (payload: unknown) => void;

const listeners = new Map<EventName, Set<Listener>>();
ipcRenderer.on(EVENT_CHANNEL, (_event: IpcRendererEvent, payload: unknown) => {
  const type = (payload as { type?: unknown } | null)?.type;
  const set = typeof type === 'string' ? listeners.get(type as EventName) : undefined;
  if (set) for (const listener of set) listener(payload);
});

const calls: Record<string, (input: unknown) => Promise<unknown>> = {};
for (const name of CALL_NAMES) {
  const channel = callChannel(name);
  calls[name] = (input: unknown) => ipcRenderer.invoke(channel, input);
}

const events: Record<string, (listener: Listener) => () => void> = {};
for (const name of EVENT_NAMES) {
  events[name] = (listener: Listener) => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
}

contextBridge.exposeInMainWorld(
  'landfall',
  Object.freeze({ calls: Object.freeze(calls), events: Object.freeze(events) }),
);
