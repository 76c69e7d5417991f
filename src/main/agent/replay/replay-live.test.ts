/**
 * Replay of every file call of the 21 corpus sessions (live mode: failed calls too). Reports, per session, the
 * calls Landfall landed although the original tool failed them, and holds the safety rules on all of them:
 * a call the original refused as ambiguous is never landed (the uniqueness gate), and a call Landfall lands
 * that the original reported not_found is landed only by a tolerant rung that names itself (never `simple`).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusSessions, harness, SESSIONS_DIR } from '../testing/fixtures';

const rescued: string[] = [];
afterAll(() => {
  process.stdout.write(
    `\nlive replay — calls Landfall landed although the original failed (${rescued.length}):\n${rescued.join('\n')}\n`,
  );
});

describe('replay of the corpus, live mode (every call)', () => {
  for (const id of corpusSessions()) {
    it(`${id}: never lands an ambiguous call; reports rescued not_found calls`, async () => {
      const h = await harness();
      try {
        const session = h.newSession(id);
        const r = await h.svc.replay(session, path.join(SESSIONS_DIR, id), { mode: 'live' });
        if (!r.ok) throw new Error(r.error.message);
        const real = r.value.calls.filter((c) => !c.synthetic && c.landfall !== 'skipped');
        expect(real.length).toBeGreaterThan(0);
        for (const c of real.filter((x) => x.recorded === 'ambiguous'))
          expect(c.landfall, `seq ${c.seq}`).not.toBe('ok');
        const landed = real.filter((c) => c.tool === 'edit' && c.recorded === 'not_found' && c.landfall === 'ok');
        for (const c of landed) {
          expect(c.rung, `seq ${c.seq}`).toBeDefined();
          expect(c.rung).not.toBe('simple');
          rescued.push(`  ${id} seq ${c.seq} ${c.path} via ${c.rung}`);
        }
        // every call of the session produced a stored outcome (nothing silently dropped)
        expect(real.filter((c) => c.landfall === 'not_run')).toEqual([]);
      } finally {
        await h.close();
      }
    }, 60_000);
  }
});
