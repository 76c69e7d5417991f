/**
 * What each command of the key table (src/shared/keymap.ts) does: the store action it runs and when it is offered.
 * The palette lists the table's commands that are offered now, beside their keys; the key handler
 * (features/layout/keyboard.ts, through `pickCommand`) runs them from the keyboard; the application menu sends ids
 * (`runCommand`). History moves are the history slice's and review decisions the review slice's, like every other
 * entry point's.
 */
import {
  KEYMAP,
  chordMatches,
  type Chord,
  type CommandId,
  type CommandKeys,
  type KeyLike,
} from '../../../shared/keymap';
import { pendingCount } from '../../../shared/review-change';
import type { Store } from './types';

interface Action {
  run(store: Store): void | Promise<void>;
  /** Offered only when this is true (absent: always). */
  when?(store: Store): boolean;
}

const hasReview = (s: Store): boolean => s.sessionId !== null && (s.review.diff?.files.length ?? 0) > 0;
const hasPending = (s: Store): boolean => s.sessionId !== null && pendingCount(s.review.diff) > 0;

const ACTIONS: Record<CommandId, Action> = {
  'view.palette': { run: (s) => s.setPalette(!s.paletteOpen) },
  'file.quickOpen': { run: (s) => s.setQuickOpen(!s.quickOpen), when: (s) => s.project !== null },
  'file.save': { run: (s) => s.saveFile(), when: (s) => s.file !== null },
  'session.new': { run: (s) => s.newSession(), when: (s) => s.project !== null },
  'chat.stop': { run: (s) => s.stop(), when: (s) => s.busy },
  'chat.mode': { run: (s) => s.cycleMode(), when: (s) => s.screen === 'chat' && (s.talk?.modes.length ?? 0) > 1 },
  'history.undo': { run: (s) => s.undo(), when: (s) => s.sessionId !== null },
  'history.redo': { run: (s) => s.redo(), when: (s) => s.sessionId !== null },
  'history.unrevert': {
    run: (s) => s.unrevert(),
    when: (s) => s.sessions.some((x) => x.id === s.sessionId && Boolean(x.revert)),
  },
  'review.keep': { run: (s) => s.decideHunk('accept'), when: hasPending },
  'review.reject': { run: (s) => s.decideHunk('reject'), when: hasPending },
  'review.next': { run: (s) => s.nextHunk(1), when: hasReview },
  'review.previous': { run: (s) => s.nextHunk(-1), when: hasReview },
  'review.keepAll': { run: (s) => s.decideAll('accept'), when: hasPending },
  'review.rejectAll': { run: (s) => s.decideAll('reject'), when: hasPending },
  'project.pick': { run: (s) => (s.info?.nativeDialog ? s.pickFolder() : s.setScreen('projects')) },
  // In the web host Open folder… already shows the projects screen (no folder dialog there).
  'view.projects': { run: (s) => s.setScreen('projects'), when: (s) => s.info?.nativeDialog === true },
  'view.settings': { run: (s) => s.setScreen('settings') },
  'view.chat': { run: (s) => s.setScreen('chat'), when: (s) => s.project !== null },
  'sample.replay': { run: (s) => s.openSample() },
};

/** True when the command can run now (its `when`). */
export function offered(store: Store, id: CommandId): boolean {
  const when = ACTIONS[id].when;
  return when ? when(store) : true;
}

/** The table's commands that can run now, in the table's order (what the palette lists). */
export function availableCommands(store: Store): CommandKeys[] {
  return KEYMAP.filter((c) => offered(store, c.id));
}

/** Runs a command by id when it is offered (the palette, the application menu). */
export function runCommand(store: Store, id: CommandId): void {
  if (offered(store, id)) void ACTIONS[id].run(store);
}

/** Where a key press happened, as the key handler reads it from the focused element. */
export interface KeyContext {
  /** The focus is in the review panel (its buttons, timeline or read-only diff editor). */
  inReview: boolean;
  /** The focus is in something that takes text: a field, the composer, an editable editor. */
  typing: boolean;
  /** A dialog that owns the keyboard is open (the palette, quick open): only their own toggles are heard. */
  overlay: boolean;
}

/** A chord that types nothing, so it may be taken from a text field: Ctrl/Cmd, Alt+Shift, or a function key. */
function typesNothing(c: Chord): boolean {
  return c.mod === true || c.ctrl === true || (c.alt === true && c.shift === true) || /^F\d+$/.test(c.key);
}

const OVERLAY_KEYS: ReadonlySet<CommandId> = new Set(['view.palette', 'file.quickOpen']);

/**
 * The command a key press runs, or null (the key then does what it would do anyway). Review bindings win while the
 * focus is in the review panel and not typing; window bindings are heard anywhere, from a text field only when the
 * chord types nothing; with an overlay open only the overlays' own toggles are heard. A command not offered now
 * (`when`) does not take its key. Esc Esc is the chat's stop: the caller counts the presses (Store.escape).
 */
export function pickCommand(e: KeyLike, ctx: KeyContext, store: Store): { id: CommandId; chord: Chord } | null {
  const hits: { row: CommandKeys; chord: Chord }[] = [];
  for (const row of KEYMAP) for (const chord of row.keys) if (chordMatches(e, chord)) hits.push({ row, chord });
  const heard = (h: { row: CommandKeys; chord: Chord }): boolean => {
    if (ctx.overlay && !OVERLAY_KEYS.has(h.row.id)) return false;
    if (h.row.scope === 'review') return ctx.inReview && !ctx.typing;
    return !ctx.typing || typesNothing(h.chord) || h.chord.key === 'Escape';
  };
  const order = [...hits.filter((h) => h.row.scope === 'review'), ...hits.filter((h) => h.row.scope === 'window')];
  const hit = order.find((h) => heard(h) && offered(store, h.row.id));
  return hit ? { id: hit.row.id, chord: hit.chord } : null;
}
