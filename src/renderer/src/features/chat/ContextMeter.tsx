/**
 * The context meter in the chat header: tokens in use against the model's window (the ledger's figure for the
 * last request, computed in main) as a bar and a number; opening it lists the tokens by category and the
 * instruction files the baseline loaded, with their size, the per-file cap, and anything the cap cut.
 */
import type React from 'react';
import { useStore } from '../../stores';
import { describeMeter } from './context-meter-text';

export function ContextMeter(): React.JSX.Element | null {
  const view = useStore((s) => s.contextView);
  if (!view?.step) return null;
  const m = describeMeter(view);
  return (
    <details className="context-meter" data-testid="context-meter">
      <summary title={m.title}>
        <span className="meter-bar" aria-hidden="true">
          <span className={`meter-fill ${m.level}`} style={{ width: `${m.percent}%` }} />
        </span>
        <span className="meter-text">{m.short}</span>
      </summary>
      <div className="meter-panel">
        <p>{m.title}</p>
        <table>
          <tbody>
            {m.categories.map(([name, tokens]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{tokens}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="meter-files-head">Instruction files (cap {m.cap} per file)</p>
        <ul className="meter-files">
          {m.files.map((f) => (
            <li key={f.label} className={f.cut ? 'cut' : undefined}>
              <code>{f.label}</code> {f.detail}
            </li>
          ))}
          {m.files.length === 0 && <li>none found</li>}
        </ul>
      </div>
    </details>
  );
}
