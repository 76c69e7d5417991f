/** The question card's keyboard (question-keys.ts): arrows, number keys, Space, Enter, Esc, the free-answer box. */
import { describe, expect, it } from 'vitest';
import { cardKey, cardQuestion } from './question-keys';

const options = [{ label: 'SQLite' }, { label: 'Postgres' }, { label: 'DuckDB' }];
const single = cardQuestion({ question: 'Which?', options });
const multiple = cardQuestion({ question: 'Which?', options, multiple: true, custom: false });
const start = { focus: 0, picked: [] as string[] };

describe('question card keys', () => {
  it('fills the defaults: single choice, free answer allowed', () => {
    expect(cardQuestion({ question: 'q' })).toEqual({ question: 'q', options: [], multiple: false, custom: true });
  });

  it('arrows move over the options and the free-answer box, wrapping', () => {
    expect(cardKey(single, start, 'ArrowUp', '')).toEqual({ kind: 'state', state: { focus: 3, picked: [] } });
    expect(cardKey(multiple, { focus: 2, picked: [] }, 'ArrowDown', '')).toEqual({
      kind: 'state',
      state: { focus: 0, picked: [] },
    });
  });

  it('single: a number key or Enter answers with that option', () => {
    expect(cardKey(single, start, '2', '')).toEqual({ kind: 'answer', reply: { selected: ['Postgres'] } });
    expect(cardKey(single, { focus: 2, picked: [] }, 'Enter', '')).toEqual({
      kind: 'answer',
      reply: { selected: ['DuckDB'] },
    });
    expect(cardKey(single, start, '9', '')).toEqual({ kind: 'none' });
  });

  it('multiple: numbers and Space toggle, Enter answers in the options’ order', () => {
    const a = cardKey(multiple, start, '3', '');
    expect(a).toEqual({ kind: 'state', state: { focus: 2, picked: ['DuckDB'] } });
    const b = cardKey(multiple, { focus: 0, picked: ['DuckDB'] }, ' ', '');
    expect(b).toEqual({ kind: 'state', state: { focus: 0, picked: ['DuckDB', 'SQLite'] } });
    expect(cardKey(multiple, { focus: 0, picked: ['DuckDB', 'SQLite'] }, 'Enter', '')).toEqual({
      kind: 'answer',
      reply: { selected: ['SQLite', 'DuckDB'] },
    });
  });

  it('the free-answer box: Enter sends its text, number keys type', () => {
    const onText = { focus: 3, picked: [] };
    expect(cardKey(single, onText, 'Enter', ' use 2 dbs ')).toEqual({ kind: 'answer', reply: { text: 'use 2 dbs' } });
    expect(cardKey(single, onText, '2', '')).toEqual({ kind: 'none' });
    expect(cardKey(single, onText, 'Enter', '  ')).toEqual({ kind: 'none' });
  });

  it('Esc dismisses', () => {
    expect(cardKey(single, start, 'Escape', 'typed')).toEqual({ kind: 'answer', reply: { dismiss: true } });
  });
});
