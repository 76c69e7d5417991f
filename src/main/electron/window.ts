/**
 * The app window and its security baseline: contextIsolation, sandbox, no nodeIntegration, no webview; the
 * renderer is served from the privileged `app://landfall` scheme with the CSP as a response header (and as the
 * meta tag in index.html); in-window navigation and new windows are denied, https links go to the OS browser.
 */
import { BrowserWindow, net, protocol, session, shell } from 'electron';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../host/csp';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = 'app://landfall';

/** Must run before `app` is ready: registers the app scheme as standard and secure. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the built renderer folder on app://landfall/ with the CSP header. Call once the app is ready. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const rel = normalize(decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname)).replace(
      /^([/\\])+/,
      '',
    );
    const abs = join(rendererDir, rel);
    if (url.host !== 'landfall' || !abs.startsWith(rendererDir + sep))
      return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(abs).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', contentSecurityPolicy());
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}

/** Adds the CSP header to the dev server's responses (electron-vite dev), where app:// is not used. */
export function cspForDevServer(devUrl: string): void {
  const origin = new URL(devUrl).origin;
  session.defaultSession.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) => {
    // The dev server needs its HMR socket; the packaged app never loads from it.
    const ws = origin.replace(/^http/, 'ws');
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy([ws], true)] },
    });
  });
}

/** Denies every web permission request (camera, notifications, …) and device access: Landfall needs none. */
export function denyWebPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

function allowExternal(url: string): void {
  try {
    if (new URL(url).protocol === 'https:') void shell.openExternal(url);
  } catch {
    // Not a URL: nothing to open.
  }
}

/** Creates the main window, loading the dev server URL or the app scheme. */
export function createWindow(preloadPath: string, devUrl: string | undefined): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    title: 'Landfall',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    allowExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    allowExternal(url);
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void win.loadURL(devUrl ?? `${APP_ORIGIN}/index.html`);
  return win;
}
