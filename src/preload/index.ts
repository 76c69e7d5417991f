/**
 * Preload: exposes the contract's calls as `window.landfall` (filled in by the app issue, #7).
 * Never exposes ipcRenderer itself.
 */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('landfall', { version: '0.1.0' });
