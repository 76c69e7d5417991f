/**
 * The message list, virtualized (@tanstack/react-virtual): only rows near the viewport are in the DOM, measured
 * as they render, so a 2,000-message session scrolls without dropped frames. It follows the bottom while the user
 * is there (streaming), and stays put when they scrolled up to read. Whether it follows is decided by the user's own
 * scrolling only (wheel, touch, keys, the scrollbar): a scroll the browser or the virtualizer makes when the layout
 * changes (a resize, the panes becoming tabs, a queued message shrinking the list, rows measured again) never stops
 * it, and any change of size — of the list, its rows or its footer — scrolls back to the bottom while following.
 */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MessageWithParts } from '../../../../shared/contract';
import { MessageRow } from './MessageRow';
import { readPlace, writePlace } from '../../stores/place';
import { useStore } from '../../stores';
import { controlTarget, keyDirection } from './scroll-intent';

/** The session's messages, virtualized, following the bottom while the user is there (see the module docstring). */
export function MessageList({
  sessionId,
  messages,
  revertedFrom,
  footer,
}: {
  sessionId: string;
  messages: MessageWithParts[];
  revertedFrom: number;
  footer?: React.ReactNode;
}): React.JSX.Element {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 90,
    overscan: 6,
    getItemKey: (i) => messages[i]?.id ?? i,
  });
  const last = messages[messages.length - 1];
  const lastPart = last?.parts[last.parts.length - 1];
  const grow =
    lastPart && (lastPart.type === 'text' || lastPart.type === 'reasoning')
      ? lastPart.text.length
      : lastPart?.type === 'tool'
        ? lastPart.state
        : '';
  const tail = last ? `${last.id}:${last.parts.length}:${grow}` : '';
  const total = virtualizer.getTotalSize();
  const follow = useRef(0);
  useEffect(() => {
    // Follow the bottom while the user is there: new parts, streamed text, and rows that grew when measured.
    // In the next animation frame, so reading scrollHeight reuses the frame's own layout instead of forcing one.
    if (!atBottom.current || follow.current) return;
    follow.current = requestAnimationFrame(() => {
      follow.current = 0;
      const el = scroller.current;
      if (el && atBottom.current) el.scrollTop = el.scrollHeight;
    });
  }, [tail, total]);
  useEffect(() => () => cancelAnimationFrame(follow.current), []);
  // Any change of size while following scrolls back to the bottom: the list's own box (a window resize, a layout
  // switch, the queue above the message box growing), its rows (measured again at a new width) and the footer
  // (permission questions, question cards, the live line — a question's preview loads on its own).
  const content = useRef<HTMLDivElement>(null);
  const footerBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const boxes = [scroller.current, content.current, footerBox.current].filter((b) => b !== null);
    if (boxes.length === 0 || typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    // Scrolled in the next frame, never inside the observer's own callback (no resize-observer loop).
    const seen = new ResizeObserver(() => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const el = scroller.current;
        if (el && atBottom.current) el.scrollTop = el.scrollHeight;
      });
    });
    for (const b of boxes) seen.observe(b);
    return () => {
      seen.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  // The user's own scrolling: a wheel, touch or key press in the list, or the scrollbar held. What the user asked
  // for decides, not when a scroll event comes: an input that scrolls up stops the following at once (a late,
  // loaded main thread cannot mistake a layout scroll for the user's), and only a scroll that lands near the bottom
  // after the user last moved down — or while the scrollbar is held — resumes it. No clock is involved.
  const lastDir = useRef<-1 | 0 | 1>(0);
  const held = useRef(false);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const toward = (dir: -1 | 1): void => {
      lastDir.current = dir;
      // Up only stops when there is somewhere to go: a wheel over a list shorter than its box changes nothing.
      if (dir < 0 && el.scrollTop > 0) atBottom.current = false;
    };
    const wheel = (e: WheelEvent): void => {
      if (e.deltaY !== 0) toward(e.deltaY < 0 ? -1 : 1);
    };
    let touchY: number | null = null;
    const touchstart = (e: TouchEvent): void => {
      touchY = e.touches[0]?.clientY ?? null;
    };
    const touchmove = (e: TouchEvent): void => {
      const y = e.touches[0]?.clientY;
      if (y === undefined || touchY === null || y === touchY) return;
      toward(y > touchY ? -1 : 1); // the finger moving down drags the content down: the list scrolls up
      touchY = y;
    };
    const keydown = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || controlTarget(e.target)) return; // typing in a question card, a button's Space
      const dir = keyDirection(e);
      if (dir !== 0) toward(dir);
    };
    const down = (e: PointerEvent): void => {
      if (e.target === el) held.current = true; // on the list's own box: its scrollbar
    };
    const up = (): void => {
      held.current = false;
    };
    el.addEventListener('wheel', wheel, { passive: true });
    el.addEventListener('touchstart', touchstart, { passive: true });
    el.addEventListener('touchmove', touchmove, { passive: true });
    el.addEventListener('keydown', keydown);
    el.addEventListener('pointerdown', down);
    window.addEventListener('pointerup', up);
    return () => {
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('touchstart', touchstart);
      el.removeEventListener('touchmove', touchmove);
      el.removeEventListener('keydown', keydown);
      el.removeEventListener('pointerdown', down);
      window.removeEventListener('pointerup', up);
    };
  }, []);
  // Back to the row the user was reading in this session (a reload, a reconnect, switching back): once per
  // session, when its messages are in.
  const restored = useRef<string | null>(null);
  useEffect(() => {
    if (restored.current === sessionId || messages.length === 0) return;
    restored.current = sessionId;
    const row = readPlace().rows[sessionId];
    if (!row || row.atBottom) return;
    atBottom.current = false;
    lastDir.current = 0;
    virtualizer.scrollToIndex(Math.min(row.index, messages.length - 1), { align: 'start' });
  }, [sessionId, messages.length, virtualizer]);
  // A search hit picked a message: scroll to it (leaving the bottom) and mark it until another is picked.
  const focus = useStore((s) => s.focusMessage);
  const focusIndex = focus ? messages.findIndex((m) => m.id === focus) : -1;
  useEffect(() => {
    if (focusIndex < 0) return;
    atBottom.current = false;
    lastDir.current = 0;
    virtualizer.scrollToIndex(focusIndex, { align: 'start' });
  }, [focusIndex, virtualizer]);
  const lastTop = useRef(0);
  const onScroll = (): void => {
    const el = scroller.current;
    if (!el) return;
    // Only the user's scrolling decides (see the listeners above): a scroll of our own follow, the browser clamping
    // after a resize, or the virtualizer keeping a row in place after measuring the rows above changes nothing —
    // even when it lands away from the bottom for a frame, or at the bottom after the user scrolled up.
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    const up = el.scrollTop < lastTop.current;
    lastTop.current = el.scrollTop;
    const was = atBottom.current;
    if (held.current) atBottom.current = near || (atBottom.current && !up);
    else if (near && lastDir.current > 0) atBottom.current = true;
    // Resumed within reach of the bottom: go all the way (rows measured as they came into view may have grown it).
    if (!was && atBottom.current && !held.current) el.scrollTop = el.scrollHeight;
    if (restored.current !== sessionId) return;
    const first = virtualizer.getVirtualItems().find((item) => item.end > el.scrollTop);
    writePlace({ rows: { [sessionId]: { index: first?.index ?? 0, atBottom: atBottom.current } } });
  };
  return (
    <div className="message-list" ref={scroller} onScroll={onScroll} data-testid="message-list">
      <div ref={content} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const message = messages[item.index];
          if (!message) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`row${item.index === focusIndex ? ' focused' : ''}`}
              data-focused={item.index === focusIndex ? 'true' : undefined}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <MessageRow message={message} reverted={revertedFrom >= 0 && item.index >= revertedFrom} />
            </div>
          );
        })}
      </div>
      <div ref={footerBox} className="message-list-footer">
        {footer}
      </div>
    </div>
  );
}
