/**
 * The input: Enter sends, Shift+Enter is a newline, Tab cycles the mode; `/undo` and `/redo` are commands (the
 * store decides). Under it, the mode switch and the model picker (TalkBar).
 */
import { memo } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { TalkBar } from './TalkBar';
import { QueuedList } from './QueuedList';

// memo: no props, so the chat's re-render per streamed frame skips it; its store selectors alone wake it.
export const Composer = memo(function Composer(): React.JSX.Element {
  const draft = useStore((s) => s.draft);
  const busy = useStore((s) => s.busy);
  const setDraft = useStore((s) => s.setDraft);
  const send = useStore((s) => s.send);
  const stop = useStore((s) => s.stop);
  const cycleMode = useStore((s) => s.cycleMode);
  const queueDraft = useStore((s) => s.queueDraft);
  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Tab' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      // Tab cycles the mode (as in opencode); Shift+Tab still moves the focus back.
      e.preventDefault();
      void cycleMode();
      return;
    }
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
        <textarea
          aria-label="Message"
          data-testid="composer"
          value={draft}
          placeholder={
            busy
              ? 'Working… Enter queues a message, Ctrl+Enter sends it now, Esc twice stops'
              : 'Ask for a change — Enter to send, Shift+Enter for a newline, /undo, /redo'
          }
          rows={3}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
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
