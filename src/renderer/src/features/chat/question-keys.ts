/**
 * The question card's keyboard, as a pure function (so it is tested without a browser): arrows move between the
 * options (and the free-answer box when there is one), number keys pick option 1–4, Enter answers, Space toggles
 * an option of a multiple choice, Esc dismisses (the model reads "the user did not answer").
 *   single choice: a number key or Enter on an option answers with it;
 *   multiple choice: a number key or Space toggles, Enter answers with what is picked (the focused option when
 *   nothing is); Enter in the free-answer box answers with its text (and, multiple, the picked options).
 */

/** The question as the card shows it (defaults filled in: single choice, free answer allowed). */
export interface CardQuestion {
  question: string;
  header?: string;
  options: { label: string; description?: string }[];
  multiple: boolean;
  custom: boolean;
}

/** Where the card is: the focused row (options first, then the free-answer box) and the picked labels. */
export interface CardState {
  focus: number;
  picked: string[];
}

export type CardReply = { selected?: string[]; text?: string; dismiss?: boolean };

/** What a key does: a new state, an answer to send, or nothing (the key is the browser's). */
export type CardAction = { kind: 'state'; state: CardState } | { kind: 'answer'; reply: CardReply } | { kind: 'none' };

/** The card's question from a question tool part's input (the model's arguments, defaults filled in). */
export function cardQuestion(input: unknown): CardQuestion {
  const i = (input ?? {}) as Partial<CardQuestion>;
  return {
    question: typeof i.question === 'string' ? i.question : '',
    ...(typeof i.header === 'string' ? { header: i.header } : {}),
    options: Array.isArray(i.options) ? i.options : [],
    multiple: i.multiple === true,
    custom: i.custom !== false,
  };
}

function toggle(picked: string[], label: string): string[] {
  return picked.includes(label) ? picked.filter((l) => l !== label) : [...picked, label];
}

function ordered(q: CardQuestion, picked: string[]): string[] {
  return q.options.map((o) => o.label).filter((l) => picked.includes(l));
}

/** The action of `key` (KeyboardEvent.key) in `state`; `text` is the free-answer box's text. */
export function cardKey(q: CardQuestion, state: CardState, key: string, text: string): CardAction {
  const rows = q.options.length + (q.custom ? 1 : 0);
  const onText = q.custom && state.focus === q.options.length;
  if (key === 'Escape') return { kind: 'answer', reply: { dismiss: true } };
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    const step = key === 'ArrowDown' ? 1 : -1;
    return { kind: 'state', state: { ...state, focus: (state.focus + step + rows) % rows } };
  }
  const n = /^[1-4]$/.test(key) && !onText ? Number(key) - 1 : -1;
  const numbered = q.options[n];
  if (numbered) {
    if (!q.multiple) return { kind: 'answer', reply: { selected: [numbered.label] } };
    return { kind: 'state', state: { focus: n, picked: toggle(state.picked, numbered.label) } };
  }
  const focused = q.options[state.focus];
  if (key === ' ' && q.multiple && focused && !onText)
    return { kind: 'state', state: { ...state, picked: toggle(state.picked, focused.label) } };
  if (key !== 'Enter') return { kind: 'none' };
  if (onText) {
    const typed = text.trim();
    const selected = q.multiple ? ordered(q, state.picked) : [];
    if (typed === '' && selected.length === 0) return { kind: 'none' };
    return { kind: 'answer', reply: { ...(selected.length ? { selected } : {}), ...(typed ? { text: typed } : {}) } };
  }
  if (!focused) return { kind: 'none' };
  if (!q.multiple) return { kind: 'answer', reply: { selected: [focused.label] } };
  const picked = state.picked.length > 0 ? state.picked : [focused.label];
  return { kind: 'answer', reply: { selected: ordered(q, picked) } };
}
