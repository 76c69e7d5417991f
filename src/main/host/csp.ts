/**
 * The Content-Security-Policy both transports send (as a header; index.html carries the same policy as a meta tag,
 * which is the floor when a header cannot be set). Monaco needs inline styles and module workers from 'self'; it
 * needs no eval. `connectSrc` is the WebSocket origin of the web host (Electron passes none). `devServer` (only
 * for `npm run dev`) lets the React refresh preamble, an inline script Vite injects, run.
 */
export function contentSecurityPolicy(connectSrc: string[] = [], devServer = false): string {
  return [
    "default-src 'self'",
    devServer ? "script-src 'self' 'unsafe-inline'" : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
