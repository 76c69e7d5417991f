/**
 * The timeline strip: one tile per step or decision, virtualized (only the visible tiles exist, so 500
 * steps scrub as smoothly as 5), with ←/→, Home/End when it has focus. Two ways to drag: across the tiles (the tile
 * under the pointer), or along the scrubber bar below them, which spans the whole session (x maps proportionally to
 * the point, so one drag reaches step 500). Both map the pointer's x straight to an index — no hit-testing — and
 * only move the selection; the store loads the diff once the pointer rests.
 */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useStore } from '../../stores';

/** Tile width in px (fixed: the virtualizer and the drag both rely on it). */
export const TILE_PX = 120;

export function TimelineStrip(): React.JSX.Element {
  const timeline = useStore((s) => s.review.timeline);
  const selected = useStore((s) => s.review.selected);
  const select = useStore((s) => s.selectPoint);
  const scroller = useRef<HTMLDivElement>(null);
  const dragging = useRef<false | 'tiles' | 'scrubber'>(false);
  const scrubber = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    horizontal: true,
    count: timeline.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => TILE_PX,
    overscan: 6,
  });

  useEffect(() => {
    if (timeline.length > 0) v.scrollToIndex(selected, { align: 'auto' });
  }, [selected, timeline.length, v]);

  const indexAt = (clientX: number): number => {
    const el = scroller.current;
    if (!el) return selected;
    const x = clientX - el.getBoundingClientRect().left + el.scrollLeft;
    return Math.floor(x / TILE_PX);
  };
  const scrubAt = (clientX: number, bar: HTMLElement): number => {
    const r = bar.getBoundingClientRect();
    return Math.round(((clientX - r.left) / Math.max(1, r.width)) * (timeline.length - 1));
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>): void => {
    if (e.button !== 0) return;
    const bar = (e.target as HTMLElement).closest<HTMLElement>('.timeline-scrubber');
    dragging.current = bar ? 'scrubber' : 'tiles';
    e.currentTarget.setPointerCapture(e.pointerId);
    select(bar ? scrubAt(e.clientX, bar) : indexAt(e.clientX));
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>): void => {
    if (!dragging.current) return;
    const bar = scrubber.current;
    select(dragging.current === 'scrubber' && bar ? scrubAt(e.clientX, bar) : indexAt(e.clientX));
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
      <div className="timeline-tiles" ref={scroller}>
        <div className="timeline-track" style={{ width: v.getTotalSize() }}>
          {v.getVirtualItems().map((item) => {
            const e = timeline[item.index];
            if (!e) return null;
            const cls = `timeline-tile kind-${e.kind}${item.index === selected ? ' selected' : ''}${e.undone ? ' undone' : ''}${e.reverted ? ' reverted' : ''}`;
            return (
              <div
                key={e.id}
                className={cls}
                style={{ transform: `translateX(${item.start}px)`, width: TILE_PX }}
                data-testid="timeline-tile"
                data-index={item.index}
                title={e.reverted ? `${e.label} — reverted: not on disk until unrevert` : e.label}
                data-reverted={e.reverted ? 'true' : undefined}
              >
                <span className="tile-index">{e.kind === 'step' ? `#${item.index + 1}` : e.tools[0]}</span>
                <span className="tile-tools">
                  {e.kind === 'step' ? e.tools.join(' ') || 'step' : e.label.split(' · ')[0]}
                </span>
                <span className="tile-files">{e.files.join(', ') || '—'}</span>
              </div>
            );
          })}
        </div>
        {timeline.length === 0 ? (
          <div className="timeline-empty">No steps yet — the agent's steps appear here.</div>
        ) : null}
      </div>
      <div
        className="timeline-scrubber"
        ref={scrubber}
        data-testid="timeline-scrubber"
        title="Drag to scrub the whole session"
      >
        <div
          className="timeline-thumb"
          style={{ left: `${timeline.length > 1 ? (selected / (timeline.length - 1)) * 100 : 0}%` }}
        />
      </div>
    </div>
  );
}
