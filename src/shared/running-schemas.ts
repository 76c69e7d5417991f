/**
 * Turns running now on one data folder (contract call `sessions.running`): the session list's running dots after
 * a reload, including turns another process (another window's host, the command line) runs.
 */
import { z } from 'zod';

/** One running turn: its session, when it started (ms since the epoch), and whether another process runs it. */
export const RunningTurnSchema = z.object({
  sessionId: z.string(),
  since: z.number(),
  elsewhere: z.boolean(),
});
export type RunningTurn = z.infer<typeof RunningTurnSchema>;
