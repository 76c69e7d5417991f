/**
 * The contract router: the one place where a call from either transport (Electron IPC or the web host's
 * WebSocket) is checked and dispatched. Algorithm: look the name up in `contract.calls` (unknown → `unknown_call`),
 * parse the raw input with the entry's zod schema (bad → `invalid_input`, with the issues as data), run the
 * handler, and turn anything thrown into data (`LandfallFailure` keeps its code; any other exception is a bug and
 * becomes `internal`). Nothing a caller sends can crash main (DESIGN §10: errors cross as data).
 */
import type { z } from 'zod';
import { calls, CALL_NAMES } from '../../shared/contract';
import type { CallName, CallOutput } from '../../shared/contract';
import { fail, isFailure } from '../../shared/errors';
import type { Result } from '../../shared/errors';

/** One handler per call, receiving the parsed input. */
export type Handlers = {
  [N in CallName]: (input: z.infer<(typeof calls)[N]['input']>) => Promise<Result<CallOutput<N>>>;
};

export interface Router {
  /**
   * Validates and dispatches one call. `name` and `input` are untrusted (straight off a socket or IPC).
   * Always resolves to a Result; never rejects.
   */
  handle(name: unknown, input: unknown): Promise<Result<unknown>>;
}

const known = new Set<string>(CALL_NAMES);

/** Builds the router over a full set of handlers. `onBug` hears exceptions that were turned into `internal`. */
export function createRouter(handlers: Handlers, onBug: (name: string, error: unknown) => void = () => {}): Router {
  return {
    async handle(name, input) {
      if (typeof name !== 'string' || !known.has(name)) {
        // Describe the name without calling into it: a hostile object may throw from toString.
        const shown = typeof name === 'string' ? JSON.stringify(name.slice(0, 100)) : `of type ${typeof name}`;
        return fail('unknown_call', `No call named ${shown}.`, 'Use one of the contract calls.');
      }
      const call = name as CallName;
      const parsed = calls[call].input.safeParse(input ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
        const first = issues[0];
        const where = first && first.path ? ` at "${first.path}"` : '';
        return fail(
          'invalid_input',
          `Invalid input for ${call}${where}: ${first?.message ?? 'rejected'}.`,
          'Fix the input to match the contract and send it again.',
          { issues },
        );
      }
      try {
        const handler = handlers[call] as (i: unknown) => Promise<Result<unknown>>;
        return await handler(parsed.data);
      } catch (error) {
        if (isFailure(error)) return error.toFail();
        onBug(call, error);
        const message = error instanceof Error ? error.message : String(error);
        return fail(
          'internal',
          `${call} failed: ${message}`,
          'This is a bug in Landfall; try again, and report it if it repeats.',
        );
      }
    },
  };
}
