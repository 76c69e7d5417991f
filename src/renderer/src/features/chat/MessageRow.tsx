/** One message: the user's text, or the assistant's parts in order (text, reasoning, tool cards, patch chips). */
import { memo } from 'react';
import type React from 'react';
import type { MessageWithParts, Part } from '../../../../shared/contract';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { RevertButton } from '../review/RevertControls';
import { ErrorBlock } from './ErrorBlock';
import { CompactionMarker } from './CompactionMarker';
import { LoopStopCard } from './LoopStopCard';
import { useStore } from '../../stores';
import { splitAttached } from '../../stores/mentions';
import { statsText, turnStats } from '../../stores/turn-stats';

/** The user's words, with the files they attached (@-mentions) as chips that open the file. */
function UserText({ text }: { text: string }): React.JSX.Element {
  const openFile = useStore((s) => s.openFile);
  return (
    <div className="user-text">
      {splitAttached(text).map((p, i) =>
        p.kind === 'text' ? (
          <span key={i}>{p.text}</span>
        ) : (
          <button
            key={i}
            className="attached-chip"
            data-testid="attached-chip"
            onClick={() => void openFile(p.path, p.lines ? Number(p.lines.split('-')[0]) : undefined)}
          >
            {p.path}
            {p.lines ? `:${p.lines}` : ''}
          </button>
        ),
      )}
    </div>
  );
}

function PartView({
  part,
  role,
  reverted,
}: {
  part: Part;
  role: 'user' | 'assistant';
  reverted: boolean;
}): React.JSX.Element | null {
  switch (part.type) {
    case 'text':
      return role === 'user' ? <UserText text={part.text} /> : <Markdown text={part.text} />;
    case 'reasoning':
      return (
        <details className="reasoning">
          <summary>Reasoning</summary>
          {part.text}
        </details>
      );
    case 'tool':
      return <ToolCard part={part} />;
    case 'patch':
      return <div className="patch-chip">Changed {part.files.join(', ')}</div>;
    case 'step-start':
      return part.model || part.mode ? (
        <div className="step-meta" data-testid="step-model">
          {[part.model, part.mode].filter(Boolean).join(' · ')}
        </div>
      ) : null;
    case 'step-finish':
      if (part.error) return <ErrorBlock error={part.error} />;
      return part.reason === 'aborted' ? (
        <div className="stopped-mark" data-testid="stopped">
          Stopped by you
        </div>
      ) : null;
    case 'compaction':
      return <CompactionMarker part={part} />;
    case 'loop-stop':
      return <LoopStopCard part={part} reverted={reverted} />;
    default:
      return null;
  }
}

/** True when the step starting at `parts[i]` ran on another model or mode than the step before it (or is the first). */
function stepChanged(parts: Part[], i: number): boolean {
  const cur = parts[i];
  if (cur?.type !== 'step-start') return false;
  for (let k = i - 1; k >= 0; k--) {
    const p = parts[k];
    if (p?.type === 'step-start') return p.model !== cur.model || p.mode !== cur.mode;
  }
  return true;
}

export const MessageRow = memo(function MessageRow({
  message,
  reverted,
}: {
  message: MessageWithParts;
  reverted: boolean;
}): React.JSX.Element {
  return (
    <article
      className={`message ${message.role}${reverted ? ' reverted' : ''}`}
      data-message-id={message.id}
      data-role={message.role}
    >
      {message.parts.map((p, i) =>
        p.type === 'step-start' && !stepChanged(message.parts, i) ? null : (
          <PartView key={p.id} part={p} role={message.role} reverted={reverted} />
        ),
      )}
      {message.role === 'assistant' && message.parts.some((p) => p.type === 'step-finish') ? (
        <div className="turn-stats" data-testid="turn-stats" title="Tokens the provider reported, and the turn's time">
          {statsText(turnStats(message))}
        </div>
      ) : null}
      {message.role === 'user' && !reverted ? <RevertButton messageId={message.id} /> : null}
    </article>
  );
});
