/**
 * The bars of long operations (a first snapshot, a restore, a revert, gc, an import) of the open project, each with
 * its name, what it is doing and how far. Which bars show and what they say is the progress slice's
 * (stores/progress-slice.ts `progressRows`: only operations that main says have run ~300 ms); this only draws them.
 */
import { useMemo } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { progressRows } from '../../stores/progress-slice';
import './progress.css';

export function ProgressBars(): React.JSX.Element | null {
  const progress = useStore((s) => s.progress);
  const projectId = useStore((s) => s.project?.id);
  // Rows are new objects on every call: derived from the two stable selections, not selected themselves.
  const rows = useMemo(() => progressRows(progress, projectId), [progress, projectId]);
  if (rows.length === 0) return null;
  return (
    <div className="progress-list" data-testid="progress-list">
      {rows.map((r) => (
        <div key={r.id} className="progress-row" data-testid="progress-bar" data-operation={r.operation}>
          <div className="progress-text">
            <span className="progress-name">{r.name}</span>
            <span className="progress-detail" title={r.detail}>
              {r.detail}
            </span>
            {r.fraction !== undefined && <span className="progress-percent">{Math.floor(r.fraction * 100)}%</span>}
          </div>
          <div
            className={`progress-track${r.fraction === undefined ? ' progress-working' : ''}`}
            role="progressbar"
            aria-label={r.name}
            aria-valuetext={r.detail || undefined}
            aria-valuemin={r.fraction === undefined ? undefined : 0}
            aria-valuemax={r.fraction === undefined ? undefined : 100}
            aria-valuenow={r.fraction === undefined ? undefined : Math.floor(r.fraction * 100)}
          >
            <div
              className="progress-fill"
              style={r.fraction === undefined ? undefined : { width: `${(r.fraction * 100).toFixed(1)}%` }}
            />
          </div>
        </div>
      ))}
    </div>
  );
}
