/**
 * The compaction model a setting names (compaction-model.ts), through the real service (SQLite store, snapshot
 * store, bash children) with two scripted models behind the settings' providers, each recording every request:
 * with `compaction: { provider: 'small', model: 'mini' }`, every summary request — of the automatic compaction near
 * the window and of /compact — goes to small/mini, and every step request to the session's model big/coder. The
 * summary request fits the summary model's own, smaller window. Without the setting, the session's model writes
 * the summary; a setting naming a provider that is gone falls back to it too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LanguageModel } from 'ai';
import type { Part } from '../../shared/model';
import { isSummary, requestTokens, sessionModel } from './context/compaction-kit';
import { promptModel, type PromptModel } from './testing/prompt-model';
import { harness, type Harness } from './testing/fixtures';
import type { ProviderSettings } from './settings/schema';

const TASK = 'Make the test suite pass; do not touch tests/fixtures.';
let hs: Harness[] = [];
afterEach(async () => {
  for (const h of hs) await h.close();
  hs = [];
});

/** Both scripted models and which model ids the service asked each provider for. */
interface Models {
  big: ReturnType<typeof sessionModel>;
  small: PromptModel;
  made: string[];
}

async function open(
  compaction: { provider: string; model?: string } | undefined,
  steps: number[],
): Promise<[Harness, Models]> {
  const models: Models = {
    big: sessionModel({ steps }),
    small: promptModel(() => ({ text: '## Task and user instructions\nsummary written by mini' }), 'mini'),
    made: [],
  };
  const h = await harness({
    models: (p: ProviderSettings, id: string): LanguageModel => {
      models.made.push(`${p.id}/${id}`);
      return p.id === 'small' ? models.small : models.big;
    },
  });
  hs.push(h);
  const saved = await h.svc.saveSettings({
    defaultProvider: 'big',
    providers: [
      {
        id: 'big',
        kind: 'openai-compatible',
        baseURL: 'http://127.0.0.1:9/v1',
        model: 'coder',
        contextWindow: 60_000,
        outputReserve: 0,
      },
      {
        id: 'small',
        kind: 'openai-compatible',
        baseURL: 'http://127.0.0.1:9/v1',
        model: 'other',
        models: ['other', { id: 'mini', contextWindow: 30_000 }],
      },
    ],
    permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
    ...(compaction ? { compaction } : {}),
  });
  if (!saved.ok) throw new Error(saved.error.message);
  return [h, models];
}

function compactions(h: Harness, s: string): Extract<Part, { type: 'compaction' }>[] {
  const v = h.svc.getSession(s);
  if (!v.ok) throw new Error(v.error.message);
  return v.value.messages.flatMap((m) => m.parts).filter((p) => p.type === 'compaction');
}

describe('the compaction model a setting names', () => {
  it('automatic compaction: summaries go to small/mini, steps to big/coder; the summary fits mini’s window', async () => {
    const [h, m] = await open(
      { provider: 'small', model: 'mini' },
      Array.from({ length: 14 }, () => 150),
    );
    const s = h.newSession();
    const r = await h.svc.prompt(s, TASK);
    expect(r.ok && r.value.finishReason).toBe('stop');
    const cs = compactions(h, s);
    expect(cs.length).toBeGreaterThanOrEqual(1);
    expect(cs.every((c) => c.trigger === 'auto' && c.summary.includes('summary written by mini'))).toBe(true);
    expect(m.small.requests.length).toBe(cs.length);
    expect(m.small.requests.every(isSummary)).toBe(true);
    expect(m.big.requests.some(isSummary)).toBe(false);
    expect(m.big.steps.length).toBe(15);
    expect(new Set(m.made)).toEqual(new Set(['big/coder', 'small/mini']));
    // mini's trigger is 30,000 − 20,000 = 10,000 tokens; big's would have allowed 40,000
    for (const q of m.small.requests) expect(requestTokens(q)).toBeLessThanOrEqual(10_000);
    // the step after the compaction carries mini's summary to big
    expect(JSON.stringify(m.big.steps[m.big.steps.length - 1]?.prompt)).toContain('summary written by mini');
  });

  it('/compact: the one summary request goes to small/mini; big gets none', async () => {
    const [h, m] = await open({ provider: 'small', model: 'mini' }, [150, 150]);
    const s = h.newSession();
    await h.svc.prompt(s, TASK);
    await h.svc.prompt(s, 'and the docs');
    const stepsBefore = m.big.requests.length;
    const r = await h.svc.compactNow(s);
    expect(r.ok && r.value.type === 'compaction' && r.value.trigger).toBe('manual');
    expect(m.small.requests.map(isSummary)).toEqual([true]);
    expect(m.big.requests.length).toBe(stepsBefore);
    expect(m.big.requests.some(isSummary)).toBe(false);
  });

  it('no setting: the session model summarises; a setting naming a removed provider falls back to it', async () => {
    for (const setting of [undefined, { provider: 'gone' }]) {
      const [h, m] = await open(setting, [150, 150]);
      const s = h.newSession();
      await h.svc.prompt(s, TASK);
      await h.svc.prompt(s, 'and the docs');
      const r = await h.svc.compactNow(s);
      expect(r.ok).toBe(true);
      expect(m.small.requests).toEqual([]);
      expect(m.big.requests.filter(isSummary).length).toBe(1);
    }
  });
});
