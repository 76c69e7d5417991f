/**
 * Expected failures are data (DESIGN §10): `{ ok: false, error: { code, message, hint, data } }`.
 * A `code` is stable snake_case and is the API the model and the UI branch on; `hint` is phrased as the
 * next step ("read the file again", "add surrounding lines"). Bugs stay exceptions; nothing crosses IPC by throw.
 *
 * This file is shared by the pure engines, main, and the renderer: it imports nothing.
 */

/** Every error code Landfall can answer with, grouped by where it arises. */
export const ERROR_CODES = [
  // edit engine (src/main/engine/edit)
  'not_found',
  'ambiguous',
  'no_change',
  'too_broad',
  'already_applied',
  'search_budget',
  'indentation_conflict', // a tolerant rung found the place, but newString fits no single indentation there
  // files (src/main/fs) and tools
  'stale',
  'not_observed',
  'outside_root',
  'binary',
  'too_large',
  'unencodable',
  'encoding_uncertain', // a legacy file whose encoding is unsure: the write adds text its bytes cannot vouch for
  'file_not_found',
  'is_directory',
  'not_a_directory', // a folder was expected (e.g. opening a file as a project)
  'exists',
  'io_error',
  'elided', // write content that stands for unchanged parts with a placeholder comment (bug B22)
  // apply_patch (src/main/engine/patch, src/main/tools/apply-patch)
  'parse',
  'no_match',
  'missing_file',
  // session / agent / host
  'busy',
  'conflict',
  'reverted', // a review decision on a hunk the session's revert took off disk: unrevert first
  'permission_denied',
  'truncated',
  'interrupted',
  'invalid_input',
  'unknown_call',
  'unauthorized',
  'provider_error',
  'context_length',
  'compaction_stalled', // compaction could not bring the history within the window (DESIGN §11 stall rules)
  'unavailable',
  // reaching past the project (src/main/reach: webfetch, MCP servers)
  'blocked_address', // a fetch whose host is, resolves to, or redirects to a local, private or metadata address
  'unsupported_content', // a fetched body that is not text, JSON, XML or HTML
  'timeout', // a fetch or an MCP server that did not answer in time
  'tool_error', // an MCP server's tool answered with an error (its text is what the model reads)
  'internal',
  // conversation rules (src/main/agent/loop-guard.ts, modes.ts, question and todo tools)
  'loop_detected', // the same call (tool + identical input) five times in a row in a turn
  'tool_suspended', // a tool failed three times in a row with different inputs: refused for the rest of the turn
  'tool_not_offered', // a call to a tool the current request did not offer (stale list, or withheld by the mode)
  'step_limit', // a tool call on the last step of a turn, which allows none
  'budget_exceeded', // the turn's tool-call or token budget (settings.limits) is spent
  'dismissed', // the user closed a question without answering
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A failure the caller can act on. `data` carries structured detail (line ranges, similarity, paths). */
export interface LandfallError<C extends ErrorCode = ErrorCode> {
  code: C;
  message: string;
  /** The next step, phrased for the model or the user. */
  hint: string;
  data?: Record<string, unknown>;
}

export type Ok<T> = { ok: true; value: T };
export type Fail<C extends ErrorCode = ErrorCode> = { ok: false; error: LandfallError<C> };
export type Result<T, C extends ErrorCode = ErrorCode> = Ok<T> | Fail<C>;

/** Wrap a value as a success. */
export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

/** Build a failure. `hint` is the next step; `data` is optional structured detail. */
export function fail<C extends ErrorCode>(
  code: C,
  message: string,
  hint: string,
  data?: Record<string, unknown>,
): Fail<C> {
  return { ok: false, error: data === undefined ? { code, message, hint } : { code, message, hint, data } };
}

/**
 * An exception that carries a LandfallError, for layers where throwing is the natural flow (deep inside fs
 * helpers). Catch it at the tool boundary and turn it back into a `Fail` with `toFail()`.
 */
export class LandfallFailure<C extends ErrorCode = ErrorCode> extends Error {
  readonly error: LandfallError<C>;
  constructor(error: LandfallError<C>) {
    super(`${error.code}: ${error.message}`);
    this.name = 'LandfallFailure';
    this.error = error;
  }
  /** The same error as data. */
  toFail(): Fail<C> {
    return { ok: false, error: this.error };
  }
}

/** True when `e` is a LandfallFailure (possibly of one of the given codes). */
export function isFailure(e: unknown, ...codes: ErrorCode[]): e is LandfallFailure {
  return e instanceof LandfallFailure && (codes.length === 0 || codes.includes(e.error.code));
}
