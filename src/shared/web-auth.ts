/**
 * How a browser page proves to the web host that it is the page the user opened (src/main/host/web.ts and the
 * renderer's rpc/socket.ts agree through these names; this file imports nothing).
 *
 * 1. `npm run serve` prints `http://127.0.0.1:PORT/#token=T`: a one-time token in the URL fragment, which the
 *    browser never sends over HTTP.
 * 2. The page's script posts it to `EXCHANGE_PATH` and gets a session credential, which it keeps in this origin's
 *    localStorage (`CREDENTIAL_STORAGE_KEY`): scheme + host + port, so another server on 127.0.0.1 — which a cookie
 *    would reach, cookies ignore the port — never sees it.
 * 3. The page presents it in the WebSocket handshake as a subprotocol `CREDENTIAL_PROTOCOL_PREFIX + credential`,
 *    next to `APP_PROTOCOL` (the one the host selects, so the credential is never echoed).
 * 4. When a socket is refused, the page asks `CHECK_PATH` (credential as a Bearer header): 401 means the credential
 *    is not (or no longer) valid — the host restarted — and the page says to open a new URL.
 */

/** POST `{ token }` → `{ ok: true, value: { credential } }`, or 401 with a contract error. */
export const EXCHANGE_PATH = '/auth/exchange';
/** POST with `Authorization: Bearer <credential>` → 204 when valid, 401 when not. */
export const CHECK_PATH = '/auth/check';
/** The WebSocket subprotocol the host selects. */
export const APP_PROTOCOL = 'landfall.v1';
/** The subprotocol that carries the credential: this prefix, then the credential (base64url). */
export const CREDENTIAL_PROTOCOL_PREFIX = 'landfall.auth.';
/** Where the page keeps its credential (localStorage of the host's origin). */
export const CREDENTIAL_STORAGE_KEY = 'landfall.credential';
