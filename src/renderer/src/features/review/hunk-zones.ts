/**
 * Per-hunk Keep / Reject bars inside the Monaco diff editor. Each hunk gets a view zone in the modified
 * editor (blank space under the hunk's last line, or above a pure deletion) and an overlay widget that holds the
 * buttons and follows the zone's top (`onDomNodeTop`) — the zone reserves the room, the overlay receives clicks
 * (Monaco swallows mouse events inside view zones; monaco-editor#3522).
 * The bars never focus anything by themselves (fixtures/bugs/README.md B41); the focused hunk is highlighted and revealed without
 * moving keyboard focus.
 */
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { ReviewHunk } from '../../../../shared/review-schemas';
import { withKeys } from '../../stores/key-labels';

export type HunkAction = 'accept' | 'reject' | 'undo';

const ZONE_PX = 30;

/**
 * The words a hunk whose change the session's revert took off disk shows instead of its state and buttons: main
 * refuses Keep / Reject / Undo on it until unrevert (error `reverted`), and what unrevert does with it.
 */
export function revertedText(h: ReviewHunk): { label: string; note: string; title: string } | null {
  if (h.reverted === undefined) return null;
  const was = h.state === 'accepted' ? 'kept' : h.state === 'rejected' ? 'rejected' : 'undecided';
  const title = `Not on disk: the session is reverted to before this change (it was ${was}).`;
  return h.reverted === 'stays_rejected'
    ? { label: 'Reverted', note: 'not on disk · stays rejected after unrevert', title: `${title} It stays rejected.` }
    : { label: 'Reverted', note: 'not on disk · unrevert brings it back', title: `${title} Unrevert brings it back.` };
}

/** The state span of a decided or reverted hunk bar. */
function stateSpan(h: ReviewHunk): HTMLSpanElement {
  const s = document.createElement('span');
  const r = revertedText(h);
  s.className = r ? 'hunk-state hunk-reverted' : 'hunk-state';
  s.textContent = r ? r.label : h.state === 'accepted' ? 'Kept' : 'Rejected';
  if (r) {
    s.title = r.title;
    s.dataset.testid = 'hunk-reverted';
  }
  return s;
}

/** The modified-side line a hunk's bar sits under (0 = above the first line). */
export function barLine(h: ReviewHunk): number {
  return h.newLines > 0 ? h.newStart + h.newLines - 1 : Math.max(h.newStart - 1, 0);
}

/** The original-side line of the same place: a blank zone there keeps side-by-side rows aligned. */
function originalLine(h: ReviewHunk): number {
  return h.oldLines > 0 ? h.oldStart + h.oldLines - 1 : Math.max(h.oldStart - 1, 0);
}

function button(label: string, title: string, testId: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = title;
  b.dataset.testid = testId;
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}

function barNode(h: ReviewHunk, n: number, total: number, focused: boolean, act: (a: HunkAction) => void): HTMLElement {
  const bar = document.createElement('div');
  bar.className = `hunk-bar state-${h.state}${focused ? ' focused' : ''}`;
  bar.dataset.testid = 'hunk-bar';
  bar.dataset.hunkId = h.id;
  bar.dataset.state = h.state;
  if (h.reverted) {
    bar.classList.add('reverted');
    bar.dataset.reverted = h.reverted;
  }
  const adds = h.lines.filter((l) => l.startsWith('+')).length;
  const dels = h.lines.filter((l) => l.startsWith('-')).length;
  const label = document.createElement('span');
  label.className = 'hunk-label';
  label.textContent = `${n}/${total} · −${h.kind === 'file' ? h.oldLines : dels} +${h.kind === 'file' ? h.newLines : adds}`;
  label.title = `Hunk ${n} of ${total}`;
  bar.append(label);
  if (h.reverted) {
    const note = document.createElement('span');
    note.className = 'hunk-reverted-note';
    note.textContent = (revertedText(h) as { note: string }).note;
    bar.title = (revertedText(h) as { title: string }).title;
    bar.append(stateSpan(h), note);
  } else if (h.state === 'pending') {
    bar.append(button('Keep', withKeys('Keep this hunk', 'review.keep'), 'hunk-keep', () => act('accept')));
    bar.append(button('Reject', withKeys('Reject this hunk', 'review.reject'), 'hunk-reject', () => act('reject')));
  } else {
    bar.append(
      stateSpan(h),
      button('Undo', 'Undo this decision', 'hunk-undo', () => act('undo')),
    );
  }
  return bar;
}

/**
 * Mount the bars of `hunks` on `editor` (the diff editor's modified side), with blank zones of the same height on
 * `original` (side by side) so both sides stay row-aligned. `focusedId` gets the highlight. Returns the function
 * that removes zones, widgets and decorations.
 */
export function mountHunkBars(
  monaco: typeof Monaco,
  editor: Monaco.editor.ICodeEditor,
  original: Monaco.editor.ICodeEditor | null,
  hunks: readonly ReviewHunk[],
  focusedId: string | null,
  onAction: (hunk: ReviewHunk, action: HunkAction) => void,
): () => void {
  const widgets: Monaco.editor.IOverlayWidget[] = [];
  const zoneIds: string[] = [];
  editor.changeViewZones((acc) => {
    hunks.forEach((h, i) => {
      const node = barNode(h, i + 1, hunks.length, h.id === focusedId, (a) => onAction(h, a));
      node.style.position = 'absolute';
      const widget: Monaco.editor.IOverlayWidget = {
        getId: () => `landfall.hunk.${h.id}`,
        getDomNode: () => node,
        getPosition: () => null,
      };
      widgets.push(widget);
      zoneIds.push(
        acc.addZone({
          afterLineNumber: barLine(h),
          heightInPx: ZONE_PX,
          domNode: document.createElement('div'),
          onDomNodeTop: (top) => {
            node.style.top = `${top}px`;
            const layout = editor.getLayoutInfo();
            node.style.left = `${layout.contentLeft}px`;
            node.style.maxWidth = `${Math.max(120, layout.contentWidth - layout.verticalScrollbarWidth - 8)}px`;
          },
        }),
      );
    });
  });
  for (const w of widgets) editor.addOverlayWidget(w);
  const spacerIds: string[] = [];
  original?.changeViewZones((acc) => {
    for (const h of hunks)
      spacerIds.push(
        acc.addZone({ afterLineNumber: originalLine(h), heightInPx: ZONE_PX, domNode: document.createElement('div') }),
      );
  });
  const focused = hunks.find((h) => h.id === focusedId);
  const decorations = editor.createDecorationsCollection(
    focused && focused.newLines > 0
      ? [
          {
            range: new monaco.Range(focused.newStart, 1, focused.newStart + focused.newLines - 1, 1),
            options: { isWholeLine: true, className: 'hunk-focused-line' },
          },
        ]
      : [],
  );
  if (focused) editor.revealLineInCenterIfOutsideViewport(Math.max(1, barLine(focused)));
  return () => {
    decorations.clear();
    for (const w of widgets) editor.removeOverlayWidget(w);
    editor.changeViewZones((acc) => zoneIds.forEach((id) => acc.removeZone(id)));
    original?.changeViewZones((acc) => spacerIds.forEach((id) => acc.removeZone(id)));
  };
}
