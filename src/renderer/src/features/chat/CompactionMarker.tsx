/**
 * A compaction in the transcript: one line ("Context compacted · N → M tokens") that opens to the summary the
 * model is sent instead of the older history and the messages it folded, with Undo (Redo once undone). What it
 * shows comes from stores/compaction-view.ts; the buttons call the compaction slice.
 */
import type React from 'react';
import { useStore } from '../../stores';
import { foldedEntries, markerLine, type CompactionPartView } from '../../stores/compaction-view';
import './compaction.css';

export function CompactionMarker({ part }: { part: CompactionPartView }): React.JSX.Element {
  const messages = useStore((s) => s.messages);
  const setUndone = useStore((s) => s.setCompactionUndone);
  const busy = useStore((s) => s.busy);
  const undone = part.undone === true;
  const folded = foldedEntries(part, messages);
  return (
    <details className={`compaction-marker${undone ? ' undone' : ''}`} data-testid="compaction-marker">
      <summary>
        <span data-testid="compaction-line">{markerLine(part)}</span>
        <span className="compaction-trigger">{part.trigger === 'manual' ? '/compact' : part.trigger}</span>
      </summary>
      <div className="compaction-body">
        <div className="compaction-actions">
          <button
            data-testid="compaction-toggle"
            disabled={busy}
            title={undone ? 'Send the summary again instead of the older history' : 'Send the full history again'}
            onClick={() => void setUndone(part.id, !undone)}
          >
            {undone ? 'Redo' : 'Undo'}
          </button>
        </div>
        <h4>Summary</h4>
        <pre className="compaction-summary" data-testid="compaction-summary">
          {part.summary}
        </pre>
        <h4>Folded messages ({folded.length})</h4>
        <ol className="compaction-folded" data-testid="compaction-folded">
          {folded.map((f) => (
            <li key={f.id}>
              <span className="folded-role">{f.role === 'user' ? 'You' : 'Agent'}</span>{' '}
              {f.text === '' ? <em>tool calls only</em> : f.text}
            </li>
          ))}
        </ol>
      </div>
    </details>
  );
}
