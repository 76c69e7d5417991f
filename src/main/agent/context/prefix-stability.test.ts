/**
 * Prefix stability over the 21 corpus sessions replayed through the real loop (recorded mode, real SQLite, real
 * snapshot store), read back from the request ledger: every request differs from the one before only by what is
 * appended — system and tool bytes identical for the whole session, no message dropped or changed — and the
 * project's AGENTS.md line is in every request. Reports the share of bytes each request shares with the one
 * before it (goal: median ≥ 95% from step 2).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusSessions, harness, SESSIONS_DIR } from '../testing/fixtures';
import { requestChange } from './request-view';

const shares: number[] = [];
let requests = 0;
afterAll(() => {
  const sorted = [...shares].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const min = sorted[0] ?? 0;
  process.stdout.write(
    `\nprefix stability: ${requests} requests over ${corpusSessions().length} corpus sessions; shared with the previous request from step 2: median ${(median * 100).toFixed(2)}%, min ${(min * 100).toFixed(2)}%\n`,
  );
});

const SENTINEL = 'AGENTS-SENTINEL-5f0: never edit generated files.';

describe('prefix stability over the corpus sessions', () => {
  for (const id of corpusSessions()) {
    it(`${id}: every request is the previous one plus what was appended`, async () => {
      const h = await harness();
      try {
        writeFileSync(path.join(h.root, 'AGENTS.md'), `${SENTINEL}\n`);
        const session = h.newSession(id);
        const r = await h.svc.replay(session, path.join(SESSIONS_DIR, id), { mode: 'recorded' });
        if (!r.ok) throw new Error(r.error.message);
        const entries = h.svc.context.ledger.entries(session);
        expect(entries.length).toBeGreaterThan(1);
        requests += entries.length;
        for (const e of entries) expect(JSON.parse(e.system.json)).toContain(SENTINEL);
        for (let i = 1; i < entries.length; i++) {
          const c = requestChange(entries[i - 1] as never, entries[i] as never);
          expect({ step: i + 1, system: c.systemChanged, tools: c.toolsChanged, dropped: c.droppedMessages }).toEqual({
            step: i + 1,
            system: false,
            tools: false,
            dropped: 0,
          });
          shares.push(c.sharedPrefix);
        }
        const sorted = [...shares].sort((a, b) => a - b);
        expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(0.95);
      } finally {
        await h.close();
      }
    }, 60_000);
  }
});
