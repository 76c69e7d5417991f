/**
 * The command palette (Ctrl/Cmd+Shift+P or F1): every command of the key table that can run now, each beside its
 * keys as this window hears them (stores/key-labels.ts); typing filters, arrows move, Enter runs, Esc closes.
 */
import { useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { availableCommands, runCommand } from '../../stores/commands';
import { keyHost, keyLabels } from '../../stores/key-labels';
import './palette.css';

export function CommandPalette(): React.JSX.Element | null {
  const open = useStore((s) => s.paletteOpen);
  const setPalette = useStore((s) => s.setPalette);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  if (!open) return null;
  const host = keyHost();
  const q = query.toLowerCase();
  const items = availableCommands(useStore.getState()).filter((c) => c.label.toLowerCase().includes(q));
  const run = (i: number): void => {
    const cmd = items[i];
    setPalette(false);
    setQuery('');
    setIndex(0);
    if (cmd) runCommand(useStore.getState(), cmd.id);
  };
  const onKeyDown = (e: React.KeyboardEvent): void => {
    if (e.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, items.length - 1));
    else if (e.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
    else if (e.key === 'Enter') run(index);
    else if (e.key === 'Escape') setPalette(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div className="palette-backdrop" onClick={() => setPalette(false)}>
      <div
        className="palette"
        role="dialog"
        aria-label="Command palette"
        data-testid="palette"
        onClick={(e) => e.stopPropagation()}
      >
        <input
          autoFocus
          placeholder="Type a command"
          aria-label="Filter commands"
          value={query}
          onChange={(e) => (setQuery(e.target.value), setIndex(0))}
          onKeyDown={onKeyDown}
        />
        <ul role="listbox" aria-label="Commands">
          {items.map((c, i) => (
            <li
              key={c.id}
              role="option"
              aria-selected={i === index}
              className={i === index ? 'selected' : ''}
              data-testid="palette-item"
              data-command={c.id}
              onMouseEnter={() => setIndex(i)}
              onClick={() => run(i)}
            >
              <span className="palette-label">{c.label}</span>
              <span className="palette-keys" data-testid="palette-keys">
                {keyLabels(c.id, host).map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
