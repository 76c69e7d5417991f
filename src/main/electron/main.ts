/**
 * Electron entry: single instance, the app scheme, the contract bound to IPC, the menu, and one window with the
 * security baseline (window.ts). Everything else — sessions, the agent, settings — is the same plain-Node service
 * the web host runs (host/services.ts); this file only supplies what needs Electron: the folder dialog, safeStorage
 * and the window.
 */
import { app, BrowserWindow, dialog } from 'electron';
import { join } from 'node:path';
import { createRouter } from '../host/router';
import { createServices } from '../host/services';
import type { Services } from '../host/services';
import type { AppCommand } from '../../shared/contract';
import { bindContract, pushEvent } from './ipc';
import {
  APP_ORIGIN,
  createWindow,
  cspForDevServer,
  denyWebPermissions,
  registerAppScheme,
  serveRenderer,
} from './window';
import { createSafeStorageSecrets } from './secrets';
import { installMenu } from './menu';

const devUrl = process.env['ELECTRON_RENDERER_URL'];
let services: Services | undefined;

function windows(): BrowserWindow[] {
  return BrowserWindow.getAllWindows();
}

function focusOrCreate(): void {
  const win = windows()[0];
  if (!win) return void openWindow();
  if (win.isMinimized()) win.restore();
  win.focus();
}

function openWindow(): BrowserWindow {
  return createWindow(join(import.meta.dirname, '../preload/index.cjs'), devUrl);
}

async function pickFolder(): Promise<string | null> {
  const parent = BrowserWindow.getFocusedWindow() ?? windows()[0];
  const options = {
    title: 'Open a project folder',
    properties: ['openDirectory' as const, 'createDirectory' as const],
  };
  const r = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return r.canceled ? null : (r.filePaths[0] ?? null);
}

async function start(): Promise<void> {
  serveRenderer(join(import.meta.dirname, '../renderer'));
  denyWebPermissions();
  if (devUrl) cspForDevServer(devUrl);
  const userData = app.getPath('userData');
  const created = await createServices({
    dataDir: userData,
    // Built beside index.js by electron.vite.config.ts (main input `snapshot-worker`).
    snapshotWorker: { workerUrl: new URL('./snapshot-worker.js', import.meta.url) },
    platform: {
      transport: 'electron',
      version: app.getVersion(),
      pickFolder,
      secrets: createSafeStorageSecrets(userData),
      resourcesDir: app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources'),
    },
  });
  if (!created.ok) {
    dialog.showErrorBox('Landfall cannot start', `${created.error.message}\n\n${created.error.hint}`);
    return app.quit();
  }
  services = created.value;
  const router = createRouter(services.handlers, (name, error) => console.error(`[landfall] ${name} failed:`, error));
  bindContract(router, windows, [APP_ORIGIN, ...(devUrl ? [new URL(devUrl).origin] : [])]);
  services.subscribe((event) => pushEvent(windows(), event));
  const send = (command: AppCommand): void => pushEvent(windows(), { type: 'app.command', command });
  installMenu(send, !app.isPackaged);
  openWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  app.on('second-instance', focusOrCreate);
  void app.whenReady().then(start);
  app.on('activate', () => {
    if (windows().length === 0 && services) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void services?.close();
  });
}
