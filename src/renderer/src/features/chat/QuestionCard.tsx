/**
 * The question card: the question tool's open question (its running tool part), answered with the keyboard
 * (question-keys.ts: arrows, number keys, Space, Enter, Esc = dismiss) or the mouse. The store sends the answer.
 */
import { useEffect, useRef, useState } from 'react';
import type React from 'react';
import type { Part } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { cardKey, cardQuestion } from './question-keys';
import type { CardReply, CardState } from './question-keys';
import './talk.css';

type ToolPart = Extract<Part, { type: 'tool' }>;

export function QuestionCard({ part }: { part: ToolPart }): React.JSX.Element {
  const q = cardQuestion(part.input);
  const answer = useStore((s) => s.answerQuestion);
  const [state, setState] = useState<CardState>({ focus: 0, picked: [] });
  const [text, setText] = useState('');
  const rows = useRef<(HTMLElement | null)[]>([]);
  const send = (reply: CardReply): void => void answer(part.id, reply);
  useEffect(() => rows.current[state.focus]?.focus(), [state.focus]);
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const action = cardKey(q, state, e.key, text);
    if (action.kind === 'none') return;
    e.preventDefault();
    if (action.kind === 'state') setState(action.state);
    else send(action.reply);
  };
  return (
    <div className="question-card" data-testid="question" role="group" aria-label="Question" onKeyDown={onKeyDown}>
      {q.header ? <div className="question-header">{q.header}</div> : null}
      <p className="question-text">{q.question}</p>
      <ol className="question-options">
        {q.options.map((o, i) => {
          const picked = state.picked.includes(o.label);
          return (
            <li key={o.label}>
              <button
                ref={(el) => {
                  rows.current[i] = el;
                }}
                className={`question-option${picked ? ' picked' : ''}${state.focus === i ? ' focused' : ''}`}
                data-testid="question-option"
                aria-pressed={q.multiple ? picked : undefined}
                onFocus={() => setState((s) => ({ ...s, focus: i }))}
                onClick={() => {
                  const action = cardKey(q, { ...state, focus: i }, q.multiple ? ' ' : 'Enter', text);
                  if (action.kind === 'state') setState(action.state);
                  else if (action.kind === 'answer') send(action.reply);
                }}
              >
                <span className="question-key">{i + 1}</span>
                <span className="question-label">{o.label}</span>
                {o.description ? <span className="question-desc">{o.description}</span> : null}
              </button>
            </li>
          );
        })}
      </ol>
      {q.custom ? (
        <input
          ref={(el) => {
            rows.current[q.options.length] = el;
          }}
          className="question-free"
          data-testid="question-free"
          placeholder={q.options.length > 0 ? 'Or type an answer — Enter to send' : 'Type your answer — Enter to send'}
          value={text}
          onFocus={() => setState((s) => ({ ...s, focus: q.options.length }))}
          onChange={(e) => setText(e.target.value)}
        />
      ) : null}
      <div className="question-actions">
        {q.multiple ? (
          <button
            className="primary"
            data-testid="question-send"
            onClick={() => {
              const action = cardKey(q, state, 'Enter', text);
              if (action.kind === 'answer') send(action.reply);
            }}
          >
            Answer
          </button>
        ) : null}
        <button data-testid="question-dismiss" onClick={() => send({ dismiss: true })}>
          Dismiss (Esc)
        </button>
        <span className="question-hint">↑↓ move · 1–{Math.max(1, q.options.length)} pick · Enter answer</span>
      </div>
    </div>
  );
}
