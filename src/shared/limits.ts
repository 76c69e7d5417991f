/**
 * Size limits both transports and both sides share, so a call the contract accepts always fits the wire. This
 * file imports nothing.
 *
 * A WebSocket frame carries one call as JSON: `{ id, call, input }`. A string of n UTF-16 code units becomes at
 * most 6n bytes there (a control character or a lone surrogate is written `\uXXXX`), so every string the contract
 * accepts is bounded, and the largest call's worst case must fit `WS_MAX_FRAME_BYTES`
 * (src/main/host/web-limits.test.ts checks every call's schema against it).
 */

/** The largest WebSocket message the web host accepts (bytes). Larger → the socket is closed with 1009. */
export const WS_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The largest session export that can be imported (UTF-16 code units, JavaScript's `string.length`). */
export const SESSION_IMPORT_MAX_CHARS = 50_000_000;

/** One piece of an import upload (`sessions.importPart`), and the most `sessions.import` takes in one call. */
export const IMPORT_PART_MAX_CHARS = 2_000_000;

/** Import uploads open at once; beginning one more drops the one least recently touched. */
export const IMPORT_UPLOADS_OPEN_MAX = 4;

/**
 * The longest text the editor may save in one `files.save` call (UTF-16 code units). Like an import part, its
 * worst-escaped JSON must fit one WebSocket frame (`WS_MAX_FRAME_BYTES`); a longer file is refused up front.
 */
export const FILE_SAVE_MAX_CHARS = 2_000_000;
