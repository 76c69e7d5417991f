/**
 * The input: Enter sends (queues while a turn runs; Ctrl+Enter then sends now), Shift+Enter is a newline, Tab and
 * Shift+Tab move the focus like in any field (the mode cycles with Ctrl/Cmd+., the key table's chat.mode); `/undo` and `/redo` are commands (the store decides). Typing `@` suggests project files (Tab or
 * Enter picks one; `:10-20` after it attaches lines); the store attaches them. Typing `/` at the start opens the
 * slash-command menu. Under it, the mode switch and the model picker (TalkBar).
 */
import { memo, useRef, useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { completeMention, mentionQuery } from '../../stores/mentions';
import { quickOpenMatches } from '../files/tree-model';
import { slashMatches } from '../../stores/slash';
import { TalkBar } from './TalkBar';
import { QueuedList } from './QueuedList';

// memo: no props, so the chat's re-render per streamed frame skips it; its store selectors alone wake it.
export const Composer = memo(function Composer(): React.JSX.Element {
  const draft = useStore((s) => s.draft);
  const busy = useStore((s) => s.busy);
  const tree = useStore((s) => s.tree);
  const setDraft = useStore((s) => s.setDraft);
  const send = useStore((s) => s.send);
  const stop = useStore((s) => s.stop);
  const queueDraft = useStore((s) => s.queueDraft);
  const input = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [index, setIndex] = useState(0);
  const query = mentionQuery(draft, caret);
  const commands = slashMatches(draft);
  const suggestions =
    commands.length > 0
      ? commands.map((c) => `/${c.name}`)
      : query === null
        ? []
        : quickOpenMatches(tree ?? [], query, 8);
  const pick = (item: string): void => {
    if (item.startsWith('/')) {
      setDraft(`${item} `);
      setIndex(0);
      return;
    }
    const path = item;
    const next = completeMention(draft, caret, path);
    setDraft(next.text);
    setCaret(next.caret);
    setIndex(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };
  const onChange = (e: React.ChangeEvent<HTMLTextAreaElement>): void => {
    setDraft(e.target.value);
    setCaret(e.target.selectionStart);
    setIndex(0);
    if (e.target.value.includes('@')) useStore.getState().ensureTree();
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>): void => {
    if (suggestions.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setIndex((i) => (i + step + suggestions.length) % suggestions.length);
        return;
      }
      // A command typed in full runs on Enter (the menu only completes a partial one; Tab always completes).
      const complete = commands.some((c) => `/${c.name}` === draft.trim());
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey && !complete)) {
        e.preventDefault();
        pick(suggestions[index] ?? (suggestions[0] as string));
        return;
      }
    }
    // Tab and Shift+Tab move the focus on and back, as in any field; the mode has its own keys (chat.mode).
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      // Ctrl/Cmd+Enter while a turn runs: "send now" (joins the turn at its next step)
      if (busy && (e.ctrlKey || e.metaKey)) void queueDraft(true);
      else void send();
    }
  };
  return (
    <div className="composer-wrap">
      <QueuedList />
      <div className="composer">
        {suggestions.length > 0 && (
          <ul
            className="mention-list"
            role="listbox"
            aria-label={commands.length > 0 ? 'Commands' : 'Attach a file'}
            data-testid={commands.length > 0 ? 'slash-menu' : 'mention-list'}
          >
            {suggestions.map((p, i) => (
              <li
                key={p}
                role="option"
                aria-selected={i === index}
                className={i === index ? 'selected' : ''}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(p);
                }}
              >
                {p}
                {commands[i] && (
                  <span className="mention-hint">
                    {commands[i].args ? ` ${commands[i].args}` : ''} — {commands[i].description}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
        <textarea
          ref={input}
          aria-label="Message"
          data-testid="composer"
          value={draft}
          placeholder={
            busy
              ? 'Working… Enter queues a message, Ctrl+Enter sends it now, Esc twice stops'
              : 'Ask for a change — Enter to send, Shift+Enter for a newline, @ to attach a file, /undo, /redo'
          }
          rows={3}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        />
        {busy ? (
          <button className="danger" data-testid="stop" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button className="primary" data-testid="send" onClick={() => void send()} disabled={!draft.trim()}>
            Send
          </button>
        )}
      </div>
      <TalkBar />
    </div>
  );
});
