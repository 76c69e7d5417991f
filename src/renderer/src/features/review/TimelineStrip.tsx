/**
 * The timeline strip (issue 8): one tile per step or decision, virtualized (only the visible tiles exist, so 500
 * steps scrub as smoothly as 5), scrubbed by dragging across it or with ←/→, Home/End when it has focus. A drag
 * maps the pointer's x straight to an index — no hit-testing of tiles — and only moves the selection; the store
 * loads the diff once the pointer rests.
 */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useReviewStore } from './review-store';

/** Tile width in px (fixed: the virtualizer and the drag both rely on it). */
export const TILE_PX = 132;

export function TimelineStrip(): React.JSX.Element {
  const timeline = useReviewStore((s) => s.timeline);
  const selected = useReviewStore((s) => s.selected);
  const select = useReviewStore((s) => s.select);
  const scroller = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const v = useVirtualizer({ horizontal: true, count: timeline.length, getScrollElement: () => scroller.current, estimateSize: () => TILE_PX, overscan: 6 });

  useEffect(() => {
    if (timeline.length > 0) v.scrollToIndex(selected, { align: 'auto' });
  }, [selected, timeline.length, v]);

  const indexAt = (clientX: number): number => {
    const el = scroller.current;
    if (!el) return selected;
    const x = clientX - el.getBoundingClientRect().left + el.scrollLeft;
    return Math.floor(x / TILE_PX);
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>): void => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    select(indexAt(e.clientX));
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>): void => {
    if (dragging.current) select(indexAt(e.clientX));
  };
  const onPointerUp = (e: React.PointerEvent<HTMLDivElement>): void => {
    dragging.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>): void => {
    const to = { ArrowLeft: selected - 1, ArrowRight: selected + 1, Home: 0, End: timeline.length - 1 }[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    select(to);
  };
  const current = timeline[selected];

  return (
    <div
      className="timeline"
      ref={scroller}
      role="slider"
      tabIndex={0}
      aria-label="Session timeline"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, timeline.length - 1)}
      aria-valuenow={selected}
      aria-valuetext={current ? `${current.index + 1} of ${timeline.length}: ${current.label}` : 'empty'}
      data-testid="review-timeline"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      <div className="timeline-track" style={{ width: v.getTotalSize() }}>
        {v.getVirtualItems().map((item) => {
          const e = timeline[item.index];
          if (!e) return null;
          const cls = `timeline-tile kind-${e.kind}${item.index === selected ? ' selected' : ''}${e.undone ? ' undone' : ''}`;
          return (
            <div key={e.id} className={cls} style={{ transform: `translateX(${item.start}px)`, width: TILE_PX }} data-testid="timeline-tile" data-index={item.index} title={e.label}>
              <span className="tile-index">{e.kind === 'step' ? `#${item.index + 1}` : e.tools[0]}</span>
              <span className="tile-tools">{e.kind === 'step' ? e.tools.join(' ') || 'step' : e.label.split(' · ')[0]}</span>
              <span className="tile-files">{e.files.join(', ') || '—'}</span>
            </div>
          );
        })}
      </div>
      {timeline.length === 0 ? <div className="timeline-empty">No steps yet — the agent's steps appear here.</div> : null}
    </div>
  );
}
