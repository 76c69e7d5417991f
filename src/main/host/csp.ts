/**
 * The Content-Security-Policy both transports send (as a header; index.html carries the same policy as a meta tag,
 * which is the floor when a header cannot be set). Monaco needs inline styles and module workers from 'self'; it
 * needs no eval. `connectSrc` is the WebSocket origin of the web host (Electron passes none).
 */
export function contentSecurityPolicy(connectSrc: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
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
