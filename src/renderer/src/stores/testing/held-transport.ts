/**
 * A transport for store tests whose every call waits until the test answers it: installed as `window.landfall`
 * (the door rpc/ uses), each call is queued as a `Pending` with its name and input; `answer(value)` resolves it
 * with `value` parsed by the contract's own output schema (a value the contract refuses throws, as main would never
 * send it), `refuse(result)` resolves it with a failed Result. Events are never pushed. So a test decides the
 * order answers arrive in — an older answer after a newer one, an answer after the user moved on.
 */
import { CALL_NAMES, EVENT_NAMES, calls as contract } from '../../../../shared/contract';
import type { CallName, LandfallApi } from '../../../../shared/contract';
import { ok } from '../../../../shared/errors';
import type { Result } from '../../../../shared/errors';

export interface Pending {
  name: CallName;
  input: unknown;
  answer(value: unknown): void;
  refuse(error: Result<never>): void;
}

export interface HeldTransport {
  /** Calls sent and not yet taken, oldest first (a test may clear it between cases). */
  pending: Pending[];
  /** The oldest unanswered call named `name`, removed from the queue; throws when none was sent within 50 ticks. */
  take(name: CallName): Promise<Pending>;
}

/** Installs the held transport as `window.landfall` (replacing any earlier one) and answers its queue. */
export function heldTransport(): HeldTransport {
  const pending: Pending[] = [];
  const api = {
    calls: Object.fromEntries(
      CALL_NAMES.map((name) => [
        name,
        (input: unknown) =>
          new Promise<Result<unknown>>((resolve) =>
            pending.push({
              name,
              input,
              answer: (value) => resolve(ok(contract[name].output.parse(value))),
              refuse: (error) => resolve(error),
            }),
          ),
      ]),
    ),
    events: Object.fromEntries(EVENT_NAMES.map((n) => [n, () => () => {}])),
  } as unknown as LandfallApi;
  (globalThis as { window?: unknown }).window = { landfall: api };
  return {
    pending,
    async take(name) {
      for (let i = 0; i < 50; i++) {
        const at = pending.findIndex((p) => p.name === name);
        if (at >= 0) return pending.splice(at, 1)[0] as Pending;
        await Promise.resolve();
      }
      throw new Error(`no ${name} call was sent (sent: ${pending.map((p) => p.name).join(', ')})`);
    },
  };
}
