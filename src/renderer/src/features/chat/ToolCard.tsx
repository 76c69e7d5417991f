/** One tool call: name and target, state, the rung that landed an edit, +/− counts, diagnostics, diff on expand. */
import { memo, useState } from 'react';
import type React from 'react';
import type { Part } from '../../../../shared/contract';
import { toolView } from './tool-view';
import { waitingServers } from '../../stores/activity';
import { useStore } from '../../stores';

type ToolPart = Extract<Part, { type: 'tool' }>;

const STATE_LABEL: Record<ToolPart['state'], string> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  error: 'failed',
};

function PatchText({ patch }: { patch: string }): React.JSX.Element {
  return (
    <pre className="patch">
      {patch
        .split('\n')
        .filter((line) => !line.startsWith('Index: ') && !/^=+$/.test(line))
        .map((line, i) => (
          <div
            key={i}
            className={
              line.startsWith('+') && !line.startsWith('+++')
                ? 'add'
                : line.startsWith('-') && !line.startsWith('---')
                  ? 'del'
                  : line.startsWith('@@')
                    ? 'hunk'
                    : ''
            }
          >
            {line || ' '}
          </div>
        ))}
    </pre>
  );
}

/** The first changed line of a unified patch (its first hunk's new-side start), for "open at the change". */
function firstLine(patch: string | undefined): number | undefined {
  const m = patch ? /^@@ -\d+(?:,\d+)? \+(\d+)/m.exec(patch) : null;
  return m ? Number(m[1]) : undefined;
}

export const ToolCard = memo(function ToolCard({ part }: { part: ToolPart }): React.JSX.Element {
  const [open, setOpen] = useState(false);
  const view = toolView(part);
  const errors = view.diagnostics.filter((d) => d.severity === 1);
  const written = waitingServers(part).join(', ');
  const openFile = useStore((s) => s.openFile);
  return (
    <div className={`tool-card state-${part.state}`} data-tool={part.tool} data-state={part.state}>
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className="tool-name">{part.tool}</span>
        <span className="tool-title">{view.title}</span>
        {view.rung && (
          <span className="rung" title="The rung of the replacer ladder that landed this edit">
            {view.rung}
          </span>
        )}
        {(view.additions > 0 || view.deletions > 0) && (
          <span className="counts">
            <span className="add">+{view.additions}</span> <span className="del">−{view.deletions}</span>
          </span>
        )}
        {errors.length > 0 && (
          <span className="diag-count">
            {errors.length} error{errors.length > 1 ? 's' : ''}
          </span>
        )}
        {written ? (
          <span className="state state-written" data-testid="written-waiting" title={`Waiting for ${written}`}>
            written, waiting for diagnostics
          </span>
        ) : (
          <span className={`state state-${part.state}`}>{STATE_LABEL[part.state]}</span>
        )}
      </button>
      {part.error && (
        <div className="tool-error" title="What the model was told">
          {part.output || part.error.message}
        </div>
      )}
      {open && (
        <div className="tool-body">
          {view.diagnostics.length > 0 && (
            <ul className="diagnostics">
              {view.diagnostics.map((d, i) => (
                <li key={i} className={d.severity === 1 ? 'error' : 'warning'}>
                  <button
                    className="file-link"
                    onClick={() => void openFile(d.file, d.line)}
                    title="Open in the editor"
                  >
                    {d.file}:{d.line}:{d.col}
                  </button>{' '}
                  {d.message}
                </li>
              ))}
            </ul>
          )}
          {view.changes.map((c) => (
            <button
              key={`open-${c.file}`}
              className="file-link"
              onClick={() => void openFile(c.file, firstLine(c.patch))}
            >
              Open {c.file}
            </button>
          ))}
          {view.changes.map((c) =>
            c.patch ? (
              <PatchText key={c.file} patch={c.patch} />
            ) : (
              <div key={c.file}>
                {c.file}: +{c.additions} −{c.deletions}
              </div>
            ),
          )}
          {view.changes.length === 0 && part.output && <pre className="tool-output">{part.output}</pre>}
        </div>
      )}
    </div>
  );
});
