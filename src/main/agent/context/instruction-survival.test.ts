/**
 * Instructions survive compaction (DESIGN §11 "Instructions are state, not history"), through the real service
 * (SQLite store, snapshot store; the steps read log files) with a mock model that records every request:
 * - a sentinel line of AGENTS.md is in every step request, byte for byte, after 1, 2 and 5 compactions;
 * - after AGENTS.md is edited (one change notice), every later step request carries the NEW text and, once a
 *   compaction folded the step the notice was told at, no longer the old one: the baseline is rebuilt from the
 *   store (never left to the summary's prose);
 * - change notices: exactly one per change, none without one, over many steps, two turns and several compactions.
 * Summary requests (the summariser's own request) are not step requests and are left out of these checks.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from '../testing/fixtures';
import { isSummary, sessionModel, writeLogs } from './compaction-kit';
import { datedHarness } from './context-test-kit';
import { messageText, NOTICE_TAG } from './request-text';
import type { WindowSpec } from './windows';
import { estimateTokens } from './tokens';
import { SYSTEM_PROMPT } from '../defaults';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SMALL: WindowSpec = { window: 60_000, outputReserve: 0, source: 'settings' };
const SENTINEL = 'SENTINEL 7f3a: never edit files under generated/ — regenerate them with `make gen` (ü, 日本)';
const OLD_RULE = 'OLD-RULE-1111: indent with tabs.';
const NEW_RULE = 'NEW-RULE-2222: indent with four spaces.';
const NEWER_RULE = 'NEWER-RULE-3333: indent with two spaces.';

/** The system text of a request as the provider got it. */
function systemOf(o: LanguageModelV3CallOptions): string {
  return o.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
}

/** The change notices a request carries, in order. */
function noticesOf(o: LanguageModelV3CallOptions): string[] {
  return o.prompt
    .filter((m) => m.role === 'user')
    .map(messageText)
    .filter((t) => t.startsWith(NOTICE_TAG));
}

/** Every request with how many compactions (summary requests) came before it; step requests only. */
function stepsWithCompactions(
  requests: LanguageModelV3CallOptions[],
): { req: LanguageModelV3CallOptions; c: number }[] {
  let c = 0;
  const out: { req: LanguageModelV3CallOptions; c: number }[] = [];
  for (const req of requests) {
    if (isSummary(req)) c++;
    else out.push({ req, c });
  }
  return out;
}

const count = (haystack: string, needle: string): number => haystack.split(needle).length - 1;

async function open(agents: string): Promise<Harness> {
  const made = await datedHarness();
  writeFileSync(path.join(made.root, 'AGENTS.md'), agents);
  return made;
}

describe('instructions across compactions', () => {
  it('a sentinel line of AGENTS.md is in every step request byte for byte after 1, 2 and 5 compactions', async () => {
    h = await open(`# Project rules\n\n${SENTINEL}\n`);
    const s = h.newSession();
    const model = sessionModel({ steps: writeLogs(h.root, 70, 150) });
    const r = await h.svc.runWithModel(s, model, 'Make the build green.', 100, { spec: SMALL });
    expect(r.ok && [r.value.finishReason, r.value.error]).toEqual(['stop', undefined]);
    const steps = stepsWithCompactions(model.requests);
    const most = Math.max(...steps.map((x) => x.c));
    expect(most).toBeGreaterThanOrEqual(5);
    for (const k of [1, 2, 5]) {
      const after = steps.filter((x) => x.c === k);
      expect(after.length, `step requests after ${k} compaction(s)`).toBeGreaterThan(0);
      for (const { req } of after) {
        expect(systemOf(req)).toContain(`${SENTINEL}\n`);
        expect(count(JSON.stringify(req.prompt), JSON.stringify(SENTINEL).slice(1, -1))).toBe(1);
      }
    }
    // and in every request before the first compaction too; no notice was ever sent (nothing changed)
    for (const { req } of steps) expect(systemOf(req)).toContain(SENTINEL);
    expect(steps.flatMap(({ req }) => noticesOf(req))).toEqual([]);
    expect(h.svc.context.baselines.notices(s).size).toBe(0);
  });

  it('after an edit (one notice) and compactions, every later request carries the new text and never the old one', async () => {
    h = await open(`# Rules\n${OLD_RULE}\n${SENTINEL}\n`);
    const root = h.root;
    const s = h.newSession();
    const EDIT_AT = 4; // the file changes while the model answers step request 4; step 5 is told
    const model = sessionModel({
      steps: writeLogs(root, 60, 150),
      override: (k) => {
        if (k === EDIT_AT) writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n${NEW_RULE}\n${SENTINEL}\n`);
        return undefined;
      },
    });
    const r = await h.svc.runWithModel(s, model, 'Reformat the parser.', 100, { spec: SMALL });
    expect(r.ok && [r.value.finishReason, r.value.error]).toEqual(['stop', undefined]);
    const steps = stepsWithCompactions(model.requests);
    expect(Math.max(...steps.map((x) => x.c))).toBeGreaterThanOrEqual(3);
    const told = steps.findIndex(({ req }) => noticesOf(req).length > 0);
    expect(told).toBe(EDIT_AT + 1);
    // before the edit: the old rule in the system, no notice
    for (const { req } of steps.slice(0, told)) {
      expect(systemOf(req)).toContain(OLD_RULE);
      expect(JSON.stringify(req.prompt)).not.toContain(NEW_RULE);
    }
    for (const [i, { req }] of steps.entries()) {
      if (i < told) continue;
      const all = JSON.stringify(req.prompt);
      // the new text is carried exactly once: in the notice, or (once a compaction folded the step the notice was
      // told at) in the rebuilt system text — and then the old text is gone from the request
      expect(count(all, NEW_RULE), `request ${i}`).toBe(1);
      expect(noticesOf(req).length, `request ${i}`).toBeLessThanOrEqual(1);
      if (noticesOf(req).length === 0) {
        expect(all, `request ${i}`).not.toContain(OLD_RULE);
        expect(systemOf(req)).toContain(NEW_RULE);
        expect(systemOf(req)).toContain(SENTINEL);
      }
    }
    const absorbed = steps.findIndex((x, i) => i > told && noticesOf(x.req).length === 0);
    expect(absorbed).toBeGreaterThan(told);
    expect(steps[absorbed]!.c).toBeGreaterThan(steps[told]!.c); // it was a compaction that absorbed it
    expect(steps.slice(absorbed).every((x) => noticesOf(x.req).length === 0)).toBe(true);
    // exactly one notice stored for the one change
    expect([...h.svc.context.baselines.notices(s).values()].flat()).toHaveLength(1);

    // a second turn, then a second edit: exactly one more notice, and again the newest text only after compaction
    const second = sessionModel({
      steps: writeLogs(root, 40, 150, 'second'),
      override: (k) => {
        if (k === 2) writeFileSync(path.join(root, 'AGENTS.md'), `# Rules\n${NEWER_RULE}\n${SENTINEL}\n`);
        return undefined;
      },
    });
    const r2 = await h.svc.runWithModel(s, second, 'Now the lexer.', 100, { spec: SMALL });
    expect(r2.ok && [r2.value.finishReason, r2.value.error]).toEqual(['stop', undefined]);
    const steps2 = stepsWithCompactions(second.requests);
    expect(Math.max(...steps2.map((x) => x.c))).toBeGreaterThanOrEqual(2);
    const told2 = steps2.findIndex(({ req }) => noticesOf(req).some((n) => n.includes(NEWER_RULE)));
    expect(told2).toBe(3);
    expect(steps2.slice(0, told2).every(({ req }) => !JSON.stringify(req.prompt).includes(NEWER_RULE))).toBe(true);
    for (const [i, { req }] of steps2.entries()) {
      const all = JSON.stringify(req.prompt);
      expect(all, `turn 2 request ${i}`).not.toContain(OLD_RULE);
      if (i < told2) continue;
      expect(count(all, NEWER_RULE), `turn 2 request ${i}`).toBe(1);
      const newer = noticesOf(req).filter((n) => n.includes(NEWER_RULE));
      expect(newer.length).toBeLessThanOrEqual(1);
      if (newer.length === 0) expect(all, `turn 2 request ${i}`).not.toContain(NEW_RULE);
    }
    expect(steps2.some((x, i) => i > told2 && !JSON.stringify(x.req.prompt).includes(NEW_RULE))).toBe(true);
    expect([...h.svc.context.baselines.notices(s).values()].flat()).toHaveLength(2);
    const last = steps2.at(-1)!.req;
    expect(JSON.stringify(last.prompt)).toContain('Now the lexer.');
    expect(systemOf(last)).toContain(SENTINEL);
    // the ledger's view still tells the fixed prompt from the (rebuilt) instructions
    const view = h.svc.context.view(s);
    expect(view.ok && view.value.step?.tokens.system).toBe(estimateTokens(SYSTEM_PROMPT));
    expect(view.ok && view.value.step?.tokens.instructions).toBeGreaterThan(estimateTokens(NEWER_RULE));
  });
});
