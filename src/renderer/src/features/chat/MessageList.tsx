/**
 * The message list, virtualized (@tanstack/react-virtual): only rows near the viewport are in the DOM, measured
 * as they render, so a 2,000-message session scrolls without dropped frames. It follows the bottom while the user
 * is there (streaming), and stays put when they scrolled up to read.
 */
import { useEffect, useRef } from 'react';
import type React from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MessageWithParts } from '../../../../shared/contract';
import { MessageRow } from './MessageRow';
import { readPlace, writePlace } from '../../stores/place';
import { useStore } from '../../stores';

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
  // The footer (permission questions, question cards, the live line) grows after it renders — a question's
  // preview loads on its own — so its size is followed too: a question that appears while the user is at the
  // bottom is scrolled into view.
  const footerBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = footerBox.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
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
    seen.observe(box);
    return () => {
      seen.disconnect();
      cancelAnimationFrame(frame);
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
    virtualizer.scrollToIndex(Math.min(row.index, messages.length - 1), { align: 'start' });
  }, [sessionId, messages.length, virtualizer]);
  // A search hit picked a message: scroll to it (leaving the bottom) and mark it until another is picked.
  const focus = useStore((s) => s.focusMessage);
  const focusIndex = focus ? messages.findIndex((m) => m.id === focus) : -1;
  useEffect(() => {
    if (focusIndex < 0) return;
    atBottom.current = false;
    virtualizer.scrollToIndex(focusIndex, { align: 'start' });
  }, [focusIndex, virtualizer]);
  const lastTop = useRef(0);
  const onScroll = (): void => {
    const el = scroller.current;
    if (!el) return;
    // Only the user scrolling up stops the following: a scroll event of our own follow can arrive after the
    // content grew again (a streamed word, a card), and must not be taken for the user leaving the bottom.
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    const up = el.scrollTop < lastTop.current;
    lastTop.current = el.scrollTop;
    atBottom.current = near || (atBottom.current && !up);
    if (restored.current !== sessionId) return;
    const first = virtualizer.getVirtualItems().find((item) => item.end > el.scrollTop);
    writePlace({ rows: { [sessionId]: { index: first?.index ?? 0, atBottom: atBottom.current } } });
  };
  return (
    <div className="message-list" ref={scroller} onScroll={onScroll} data-testid="message-list">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
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
