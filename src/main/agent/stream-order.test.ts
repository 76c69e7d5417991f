/**
 * Streamed text as a listener sees it: folding the events of a text part in order (a delta appends, a
 * part.updated replaces with the stored text) gives, after every event, a prefix of the final text and, at the
 * end, exactly the final text — never a chunk twice. The model streams 12-character chunks while the clock moves
 * 300 ms per chunk, so every chunk also saves the part (the save interval is 250 ms).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { CoreEvent } from '../../shared/events';
import { harness } from './testing/fixtures';
import type { Harness } from './testing/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

const TEXT = "I'll start by reading the greeter, then add a --shout flag and a test for it.";

/** A model streaming TEXT in 12-character chunks; `tick()` runs before each chunk (moves the fake clock). */
function chunked(tick: () => void): LanguageModelV3 {
  const chunks = TEXT.match(/[\s\S]{1,12}/g) ?? [];
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'chunked',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream: () => {
      let i = 0;
      return Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            c.enqueue({ type: 'text-start', id: 't' });
          },
          pull(c) {
            if (i < chunks.length) {
              tick();
              c.enqueue({ type: 'text-delta', id: 't', delta: chunks[i++] as string });
              return;
            }
            c.enqueue({ type: 'text-end', id: 't' });
            c.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 1, text: 1, reasoning: 0 },
              },
            });
            c.close();
          },
        }),
      });
    },
  };
}

describe('streamed text order', () => {
  it('folding deltas and saves in event order never shows a chunk twice', async () => {
    h = await harness();
    const s = h.newSession();
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const events: CoreEvent[] = [];
    h.svc.on((e) => events.push(e));
    const r = await h.svc.runWithModel(
      s,
      chunked(() => (offset += 300)),
      'go',
    );
    expect(r.ok).toBe(true);
    const assistant = new Set(
      events.flatMap((e) => (e.type === 'message.added' && e.message.role === 'assistant' ? [e.message.id] : [])),
    );
    let shown = '';
    let saves = 0;
    const seen: string[] = [];
    for (const e of events) {
      if (e.type === 'text.delta') shown += e.delta;
      else if (e.type === 'part.updated' && e.part.type === 'text' && assistant.has(e.part.messageId)) {
        shown = e.part.text;
        saves++;
      } else continue;
      seen.push(shown);
    }
    expect(saves).toBeGreaterThan(3);
    const broken = seen.filter((t) => !TEXT.startsWith(t));
    console.log(`streamed-text order: ${seen.length} states checked / ${seen.length - broken.length} held`);
    expect(broken).toEqual([]);
    expect(shown).toBe(TEXT);
  });
});
