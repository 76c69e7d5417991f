/** Ctrl/Cmd+P: find a project file by name (characters in order); Enter opens it in the editor, Esc closes. */
import { useEffect, useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { quickOpenMatches } from './tree-model';

export function QuickOpen(): React.JSX.Element | null {
  const open = useStore((s) => s.quickOpen);
  const tree = useStore((s) => s.tree);
  const setOpen = useStore((s) => s.setQuickOpen);
  const openFile = useStore((s) => s.openFile);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const projectId = useStore((s) => s.project?.id);
  const ensureTree = useStore((s) => s.ensureTree);
  useEffect(() => {
    if (open && tree === null) ensureTree();
  }, [open, tree, projectId, ensureTree]);
  if (!open) return null;
  const items = quickOpenMatches(tree ?? [], query);
  const pick = (i: number): void => {
    const path = items[i];
    setOpen(false);
    setQuery('');
    setIndex(0);
    if (path) void openFile(path);
  };
  const onKeyDown = (e: React.KeyboardEvent): void => {
    if (e.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, items.length - 1));
    else if (e.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
    else if (e.key === 'Enter') pick(index);
    else if (e.key === 'Escape') setOpen(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div className="palette-backdrop" onClick={() => setOpen(false)}>
      <div
        className="palette"
        role="dialog"
        aria-label="Open a file"
        data-testid="quick-open"
        onClick={(e) => e.stopPropagation()}
      >
        <input
          autoFocus
          placeholder="File name…"
          aria-label="File name"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul>
          {items.map((p, i) => (
            <li
              key={p}
              className={i === index ? 'selected' : ''}
              onMouseEnter={() => setIndex(i)}
              onClick={() => pick(i)}
            >
              {p}
            </li>
          ))}
          {tree === null && <li className="muted">Loading files…</li>}
        </ul>
      </div>
    </div>
  );
}
