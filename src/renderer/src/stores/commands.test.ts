/**
 * Which command a key press runs (pickCommand), on a real store: review keys only in the review panel and never
 * while typing; window keys from a text field only when they type nothing; overlays hear only their toggles; a
 * command that is not offered leaves its key alone. Also the palette's list (availableCommands).
 */
import { describe, expect, it } from 'vitest';
import type { KeyLike } from '../../../shared/keymap';
import type { ReviewDiff } from '../../../shared/review-schemas';
import { availableCommands, pickCommand, type KeyContext } from './commands';
import { createAppStore } from './index';

const press = (key: string, mods: Partial<Omit<KeyLike, 'key'>> = {}): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});
const ctx = (c: Partial<KeyContext> = {}): KeyContext => ({ inReview: false, typing: false, overlay: false, ...c });

const diff: ReviewDiff = {
  from: 'a',
  to: 'b',
  scope: 'a..b',
  files: [
    {
      path: 'r.txt',
      status: 'modified',
      beforeSize: 2,
      afterSize: 2,
      additions: 1,
      deletions: 1,
      hunks: [
        {
          id: 'h1',
          kind: 'lines',
          oldStart: 1,
          oldLines: 1,
          newStart: 1,
          newLines: 1,
          lines: ['-a', '+b'],
          state: 'pending',
        },
      ],
    },
  ],
};

function store(): ReturnType<typeof createAppStore> {
  const s = createAppStore();
  s.setState({
    project: { id: 'p', root: '/p', name: 'p', lastOpened: 0 },
    sessionId: 's',
    review: { ...s.getState().review, sessionId: 's', diff },
  });
  return s;
}

describe('pickCommand', () => {
  it('hears review keys in the review panel (also in its read-only diff editor) and nowhere else', () => {
    const s = store().getState();
    const reject = press('n', { altKey: true, code: 'KeyN' });
    expect(pickCommand(reject, ctx({ inReview: true }), s)?.id).toBe('review.reject');
    expect(pickCommand(press('n', { ctrlKey: true }), ctx({ inReview: true }), s)?.id).toBe('review.reject');
    expect(pickCommand(press('y', { metaKey: true }), ctx({ inReview: true }), s)?.id).toBe('review.keep');
    expect(pickCommand(press('ArrowDown', { altKey: true }), ctx({ inReview: true }), s)?.id).toBe('review.next');
    expect(pickCommand(reject, ctx(), s)).toBeNull();
    // Ctrl/Cmd+N outside the panel is the desktop app's New session (Chrome keeps it in a tab).
    expect(pickCommand(press('n', { ctrlKey: true }), ctx(), s)?.id).toBe('session.new');
  });

  it('never fires a review key while typing (the chat composer, a field), even inside the panel', () => {
    const s = store().getState();
    for (const typing of [ctx({ typing: true }), ctx({ typing: true, inReview: true })]) {
      expect(pickCommand(press('n', { altKey: true }), typing, s)).toBeNull();
      expect(pickCommand(press('y', { ctrlKey: true }), typing, s)).toBeNull();
      expect(pickCommand(press('Enter', { ctrlKey: true }), typing, s)).toBeNull();
      expect(pickCommand(press('ArrowUp', { altKey: true }), typing, s)).toBeNull();
    }
  });

  it('takes window keys from a text field only when they type nothing', () => {
    const s = store().getState();
    const typing = ctx({ typing: true });
    expect(pickCommand(press('p', { ctrlKey: true }), typing, s)?.id).toBe('file.quickOpen');
    expect(pickCommand(press('F1'), typing, s)?.id).toBe('view.palette');
    expect(pickCommand(press('N', { altKey: true, shiftKey: true }), typing, s)?.id).toBe('session.new');
    expect(pickCommand(press('n'), typing, s)).toBeNull();
  });

  it('leaves a key alone when its command is not offered', () => {
    const s = store();
    expect(pickCommand(press('s', { ctrlKey: true }), ctx(), s.getState())).toBeNull(); // no open file
    s.setState({ review: { ...s.getState().review, diff: null } });
    expect(pickCommand(press('n', { altKey: true }), ctx({ inReview: true }), s.getState())).toBeNull();
    s.setState({ project: null, sessionId: null });
    expect(pickCommand(press('p', { ctrlKey: true }), ctx(), s.getState())).toBeNull(); // the browser prints
  });

  it('hears only the overlays’ own toggles while the palette or quick open is open', () => {
    const s = store().getState();
    const open = ctx({ overlay: true, typing: true });
    expect(pickCommand(press('P', { ctrlKey: true, shiftKey: true }), open, s)?.id).toBe('view.palette');
    expect(pickCommand(press('p', { ctrlKey: true }), open, s)?.id).toBe('file.quickOpen');
    expect(pickCommand(press('N', { altKey: true, shiftKey: true }), open, s)).toBeNull();
    expect(pickCommand(press('Escape'), open, s)).toBeNull();
  });

  it('counts Esc for the stop only while a turn runs', () => {
    const s = store();
    expect(pickCommand(press('Escape'), ctx({ typing: true }), s.getState())).toBeNull();
    s.setState({ busy: true });
    expect(pickCommand(press('Escape'), ctx({ typing: true }), s.getState())?.id).toBe('chat.stop');
  });
});

describe('the palette', () => {
  it('lists the commands that can run now, review ones while a point has pending hunks', () => {
    const s = store();
    const ids = availableCommands(s.getState()).map((c) => c.id);
    expect(ids).toContain('review.reject');
    expect(ids).toContain('session.new');
    expect(ids).not.toContain('file.save');
    expect(ids).not.toContain('chat.stop');
    s.setState({ review: { ...s.getState().review, diff: null } });
    expect(availableCommands(s.getState()).map((c) => c.id)).not.toContain('review.reject');
  });
});
