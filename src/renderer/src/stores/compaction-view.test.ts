/** The compaction marker's line and folded list (compaction-view.ts). */
import { describe, expect, it } from 'vitest';
import type { MessageWithParts } from '../../../shared/contract';
import { foldedEntries, markerLine, type CompactionPartView } from './compaction-view';

const part: CompactionPartView = {
  id: 'prt_c',
  sessionId: 's',
  messageId: 'm3',
  time: 1,
  type: 'compaction',
  summary: 'sum',
  keptFrom: 'm3',
  folded: ['m1', 'm2', 'm_gone'],
  tokensBefore: 48_210,
  tokensAfter: 6_904.4,
  trigger: 'manual',
};

const msg = (id: string, role: 'user' | 'assistant', text?: string): MessageWithParts => ({
  id,
  sessionId: 's',
  role,
  time: 1,
  parts: text === undefined ? [] : [{ id: `${id}_t`, sessionId: 's', messageId: id, time: 1, type: 'text', text }],
});

describe('compaction marker view', () => {
  it('says the tokens before and after, and whether it is undone', () => {
    expect(markerLine(part)).toBe('Context compacted · 48,210 → 6,904 tokens');
    expect(markerLine({ ...part, undone: true })).toBe('Compaction undone · 48,210 → 6,904 tokens');
  });

  it('lists the folded messages still there, in session order, first text cut to 120 characters', () => {
    const long = `${'word '.repeat(40)}end`;
    const messages = [msg('m2', 'assistant'), msg('m1', 'user', `  fix\n the   tests `), msg('m3', 'user', long)];
    expect(foldedEntries(part, messages)).toEqual([
      { id: 'm2', role: 'assistant', text: '' },
      { id: 'm1', role: 'user', text: 'fix the tests' },
    ]);
    const cut = foldedEntries({ ...part, folded: ['m3'] }, messages)[0]?.text ?? '';
    expect(cut).toHaveLength(120);
    expect(cut.endsWith('…')).toBe(true);
  });
});
