/** A draggable divider between two panes (pointer drag or arrow keys); the store clamps and remembers the size. */
import type React from 'react';
import { useStore } from '../../stores';
import type { PaneSizes } from '../../stores/layout';

/** `pane` is the size this divider changes; `grow` is +1 when dragging right widens it (sidebar), −1 otherwise. */
export function Divider({ pane, grow }: { pane: keyof PaneSizes; grow: 1 | -1 }): React.JSX.Element {
  const size = useStore((s) => s.paneSizes[pane]);
  const resize = useStore((s) => s.resizePane);
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>): void => {
    e.preventDefault();
    const startX = e.clientX;
    const start = useStore.getState().paneSizes[pane];
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const move = (m: PointerEvent): void => resize(pane, start + grow * (m.clientX - startX));
    const up = (): void => {
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  };
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const step = e.shiftKey ? 80 : 20;
    if (e.key === 'ArrowLeft') resize(pane, size - grow * step);
    else if (e.key === 'ArrowRight') resize(pane, size + grow * step);
    else return;
    e.preventDefault();
  };
  return (
    <div
      className={`divider divider-${pane}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={pane === 'sidebar' ? 'Resize the sessions pane' : 'Resize the review pane'}
      aria-valuenow={size}
      tabIndex={0}
      data-testid={`divider-${pane}`}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
