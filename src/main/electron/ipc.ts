/**
 * Binds the contract to Electron IPC: one `ipcMain.handle` per call on its derived channel, each checking that
 * the sender is our window's top frame loaded from our own origin before the router sees the input (after VS
 * Code's validated ipcMain). Events go to the window on the single event channel.
 */
import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { CALL_NAMES, EVENT_CHANNEL, callChannel } from '../../shared/contract-names';
import type { AnyEvent } from '../../shared/contract';
import { fail } from '../../shared/errors';
import type { Router } from '../host/router';

/** True when the frame is the main frame of a Landfall window showing the app's own pages. */
export function trustedSender(
  event: IpcMainInvokeEvent,
  windows: () => BrowserWindow[],
  appOrigins: string[],
): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!windows().some((w) => w.webContents === event.sender)) return false;
  try {
    return appOrigins.includes(new URL(frame.url).origin);
  } catch {
    return false;
  }
}

/** Registers the call handlers. Returns a function that removes them. */
export function bindContract(router: Router, windows: () => BrowserWindow[], appOrigins: string[]): () => void {
  for (const name of CALL_NAMES) {
    ipcMain.handle(callChannel(name), (event, input: unknown) => {
      if (!trustedSender(event, windows, appOrigins)) {
        return fail('unauthorized', 'This call did not come from a Landfall window.', 'Use the Landfall window.');
      }
      return router.handle(name, input);
    });
  }
  return () => {
    for (const name of CALL_NAMES) ipcMain.removeHandler(callChannel(name));
  };
}

/** Sends one event to every open window. */
export function pushEvent(windows: BrowserWindow[], event: AnyEvent): void {
  for (const w of windows) if (!w.isDestroyed()) w.webContents.send(EVENT_CHANNEL, event);
}
