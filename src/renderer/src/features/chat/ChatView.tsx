/** The chat screen: session header, the virtualized messages with permission prompts inline, and the input. */
import type React from 'react';
import { useStore } from '../../stores';
import { MessageList } from './MessageList';
import { Composer } from './Composer';
import { HistoryNotice } from './HistoryNotice';
import { ContextMeter } from './ContextMeter';
import { PermissionPrompt } from '../permission/PermissionPrompt';
import { FirstRunBanner } from '../firstrun/FirstRunBanner';
import { QuestionCard } from './QuestionCard';
import { TodoPanel } from './TodoPanel';
import { todosOf } from '../../../../shared/todo';
import type { MessageWithParts, Part } from '../../../../shared/contract';

/** The question tool's open questions: its running parts (the stored question, also after a reconnect). */
function openQuestions(messages: MessageWithParts[]): Extract<Part, { type: 'tool' }>[] {
  const last = messages[messages.length - 1];
  return (last?.parts ?? []).filter(
    (p): p is Extract<Part, { type: 'tool' }> => p.type === 'tool' && p.tool === 'question' && p.state === 'running',
  );
}
import { ActivityLine } from './ActivityLine';
import { ProgressBars } from './ProgressBars';
import { ErrorBlock } from './ErrorBlock';
import { sessionStats, statsText } from '../../stores/turn-stats';
import { toldByLoopCard } from '../../stores/loop-stop';
import './live.css';

export function ChatView(): React.JSX.Element {
  const sessionId = useStore((s) => s.sessionId);
  const session = useStore((s) => s.sessions.find((x) => x.id === s.sessionId));
  const messages = useStore((s) => s.messages);
  const asks = useStore((s) => s.asks);
  const turnError = useStore((s) => (s.sessionId ? s.turnErrors[s.sessionId] : undefined));
  const newSession = useStore((s) => s.newSession);
  if (!sessionId) {
    return (
      <section className="chat empty">
        <ProgressBars />
        <FirstRunBanner />
        <p>Pick a session on the left, or start a new one.</p>
        <button className="primary" onClick={() => void newSession()}>
          New session
        </button>
      </section>
    );
  }
  const boundary = session?.revert?.messageId;
  const revertedFrom = boundary ? messages.findIndex((m) => m.id === boundary) : -1;
  const title = session?.title ?? 'Session';
  const stats = messages.some((m) => m.role === 'assistant') ? statsText(sessionStats(messages)) : '';
  return (
    <section className="chat" data-testid="chat">
      <header className="chat-head">
        <h2 title={title}>{title}</h2>
        <ContextMeter />
        <span className="session-stats" data-testid="session-stats" title={stats || undefined}>
          {stats}
        </span>
      </header>
      {boundary && (
        <p className="reverted-note" role="status" data-testid="reverted-note">
          Undone — /redo brings it back; your next message makes it final.
        </p>
      )}
      <ProgressBars />
      <div className="chat-body">
        <MessageList
          key={sessionId}
          sessionId={sessionId}
          messages={messages}
          revertedFrom={revertedFrom}
          footer={
            <>
              {asks.map((a) => (
                <PermissionPrompt key={a.requestId} ask={a} />
              ))}
              {openQuestions(messages).map((p) => (
                <QuestionCard key={p.id} part={p} />
              ))}
              {turnError && !storedError(messages, turnError.code) && <ErrorBlock error={turnError} />}
              <ActivityLine />
            </>
          }
        />
        <TodoPanel todos={todosOf(messages, session?.revert)} />
      </div>
      <HistoryNotice />
      <Composer />
    </section>
  );
}

/**
 * True when the last turn already shows an error of `code` — on its step-finish, or as a repetition card — so the
 * live one is not shown twice.
 */
function storedError(messages: ReturnType<typeof useStore.getState>['messages'], code: string): boolean {
  const last = messages[messages.length - 1];
  return (
    !!last?.parts.some((p) => p.type === 'step-finish' && p.error?.code === code) || toldByLoopCard(messages, code)
  );
}
