/** Ctrl/Cmd+Shift+P: a filtered list of commands; arrows move, Enter runs, Esc closes. */
import { useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { COMMANDS } from '../../stores/commands';

export function CommandPalette(): React.JSX.Element | null {
  const open = useStore((s) => s.paletteOpen);
  const setPalette = useStore((s) => s.setPalette);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  if (!open) return null;
  const state = useStore.getState();
  const q = query.toLowerCase();
  const items = COMMANDS.filter((c) => (c.when ? c.when(state) : true) && c.label.toLowerCase().includes(q));
  const run = (i: number): void => {
    const cmd = items[i];
    setPalette(false);
    setQuery('');
    if (cmd) void cmd.run(useStore.getState());
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
          value={query}
          onChange={(e) => (setQuery(e.target.value), setIndex(0))}
          onKeyDown={onKeyDown}
        />
        <ul role="listbox">
          {items.map((c, i) => (
            <li
              key={c.id}
              role="option"
              aria-selected={i === index}
              className={i === index ? 'selected' : ''}
              onMouseEnter={() => setIndex(i)}
              onClick={() => run(i)}
            >
              {c.label}
              {c.shortcut && <kbd>{c.shortcut}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
