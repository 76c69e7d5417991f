/**
 * The one table of the window's commands and their keys: what the renderer's key handler listens for
 * (src/renderer/src/features/layout/keyboard.ts), what the command palette shows beside each command, the
 * accelerators of the desktop app's menu (src/main/electron/menu.ts) and the README's "Keyboard" section
 * (`keymapMarkdown`, held equal to the README by keymap.test.ts). The actions behind the ids are the renderer's
 * (src/renderer/src/stores/commands.ts); this file is data and pure helpers, shared by main and the renderer.
 *
 * Keys a browser keeps for itself: in a normal tab Chrome acts on its tab and window keys before the page sees
 * them (Chromium's `BrowserCommandController::IsReservedCommandOrKey`: new window / tab / incognito window, close
 * tab / window, reopen tab, next / previous tab, quit), and Firefox does the same for the keys its
 * `browser-sets.inc` marks `reserved="true"` (among them Ctrl+Shift+P, its private window). `BROWSER_KEEPS` lists
 * them; every command that has keys has at least one a browser tab delivers (keymap.test.ts), so the web host
 * (`npm run serve`) reaches every command from the keyboard. The desktop app keeps its extra keys (Ctrl/Cmd+N).
 */

/**
 * Where a binding is heard: `window` anywhere in the window (also while typing, for chords with Ctrl/Cmd or
 * Alt+Shift, which type nothing); `review` only while the keyboard focus is in the review panel — its buttons, the
 * timeline, or the read-only diff editor — and never while typing in a text field.
 */
export type KeyScope = 'window' | 'review';

/**
 * One key combination. `key` is a lower-case letter, a punctuation character, or a `KeyboardEvent.key` name
 * (`Enter`, `Backspace`, `ArrowDown`, `Escape`, `F1`, `Tab`, `PageUp`…). `mod` is Ctrl on Windows and Linux, Cmd on
 * macOS; `ctrl` is the Control key on every platform (Ctrl+Tab). `twice`: pressed twice in a row (Esc Esc).
 */
export interface Chord {
  key: string;
  mod?: true;
  ctrl?: true;
  shift?: true;
  alt?: true;
  twice?: true;
}

/** Every command of the window, by id (the application menu sends a subset of them: AppCommand in contract.ts). */
export const COMMAND_IDS = [
  'view.palette',
  'file.quickOpen',
  'file.save',
  'session.new',
  'chat.stop',
  'chat.mode',
  'history.undo',
  'history.redo',
  'history.unrevert',
  'review.keep',
  'review.reject',
  'review.next',
  'review.previous',
  'review.keepAll',
  'review.rejectAll',
  'project.pick',
  'view.projects',
  'view.settings',
  'view.chat',
  'sample.replay',
] as const;
export type CommandId = (typeof COMMAND_IDS)[number];

/** A command's row in the table: its label (the palette's and the README's words), scope and keys. */
export interface CommandKeys {
  id: CommandId;
  label: string;
  scope: KeyScope;
  keys: readonly Chord[];
}

/** The table, in the palette's order. */
export const KEYMAP: readonly CommandKeys[] = [
  {
    id: 'view.palette',
    label: 'Show all commands',
    scope: 'window',
    keys: [{ key: 'p', mod: true, shift: true }, { key: 'F1' }],
  },
  { id: 'file.quickOpen', label: 'Open a file by name', scope: 'window', keys: [{ key: 'p', mod: true }] },
  { id: 'file.save', label: 'Save the open file', scope: 'window', keys: [{ key: 's', mod: true }] },
  {
    id: 'session.new',
    label: 'New session',
    scope: 'window',
    keys: [
      { key: 'n', mod: true },
      { key: 'n', alt: true, shift: true },
    ],
  },
  { id: 'chat.stop', label: 'Stop the running turn', scope: 'window', keys: [{ key: 'Escape', twice: true }] },
  // Not Tab: Tab and Shift+Tab move the focus everywhere, the message box too (every control stays reachable).
  {
    id: 'chat.mode',
    label: 'Switch mode (build → plan → …)',
    scope: 'window',
    keys: [
      { key: '.', mod: true },
      { key: 'm', alt: true, shift: true },
    ],
  },
  { id: 'history.undo', label: 'Undo the last turn (/undo)', scope: 'window', keys: [] },
  { id: 'history.redo', label: 'Redo (/redo)', scope: 'window', keys: [] },
  { id: 'history.unrevert', label: 'Unrevert: bring back everything undone', scope: 'window', keys: [] },
  {
    id: 'review.keep',
    label: 'Keep the focused hunk',
    scope: 'review',
    keys: [
      { key: 'y', mod: true },
      { key: 'y', alt: true },
    ],
  },
  {
    id: 'review.reject',
    label: 'Reject the focused hunk',
    scope: 'review',
    keys: [
      { key: 'n', mod: true },
      { key: 'n', alt: true },
    ],
  },
  { id: 'review.next', label: 'Next change', scope: 'review', keys: [{ key: 'ArrowDown', alt: true }] },
  { id: 'review.previous', label: 'Previous change', scope: 'review', keys: [{ key: 'ArrowUp', alt: true }] },
  {
    id: 'review.keepAll',
    label: 'Keep every pending hunk of the point',
    scope: 'review',
    keys: [{ key: 'Enter', mod: true }],
  },
  {
    id: 'review.rejectAll',
    label: 'Reject every pending hunk of the point',
    scope: 'review',
    keys: [{ key: 'Backspace', mod: true }],
  },
  { id: 'project.pick', label: 'Open folder…', scope: 'window', keys: [{ key: 'o', mod: true }] },
  { id: 'view.projects', label: 'Open a project…', scope: 'window', keys: [] },
  { id: 'view.settings', label: 'Settings', scope: 'window', keys: [{ key: ',', mod: true }] },
  { id: 'view.chat', label: 'Back to the chat', scope: 'window', keys: [] },
  { id: 'sample.replay', label: 'Replay the sample session', scope: 'window', keys: [] },
];

/** A browser that may keep keys for itself (the web host runs in one). */
export type Browser = 'chrome' | 'firefox';

/**
 * Keys a browser acts on before a page in a normal tab (so `preventDefault` cannot keep them), per browser — see
 * the module docstring for the sources. Ctrl+Tab and the Page keys are Control on macOS too; the rest use Cmd there.
 */
export const BROWSER_KEEPS: readonly { chord: Chord; browsers: readonly Browser[]; what: string }[] = [
  { chord: { key: 'n', mod: true }, browsers: ['chrome', 'firefox'], what: 'new window' },
  { chord: { key: 't', mod: true }, browsers: ['chrome', 'firefox'], what: 'new tab' },
  { chord: { key: 'w', mod: true }, browsers: ['chrome', 'firefox'], what: 'close tab' },
  { chord: { key: 'q', mod: true }, browsers: ['chrome', 'firefox'], what: 'quit' },
  { chord: { key: 'n', mod: true, shift: true }, browsers: ['chrome', 'firefox'], what: 'new private window' },
  { chord: { key: 'p', mod: true, shift: true }, browsers: ['firefox'], what: 'new private window' },
  { chord: { key: 't', mod: true, shift: true }, browsers: ['chrome'], what: 'reopen closed tab' },
  { chord: { key: 'w', mod: true, shift: true }, browsers: ['chrome', 'firefox'], what: 'close window' },
  { chord: { key: 'q', mod: true, shift: true }, browsers: ['chrome'], what: 'quit' },
  { chord: { key: 'Tab', ctrl: true }, browsers: ['chrome', 'firefox'], what: 'next tab' },
  { chord: { key: 'Tab', ctrl: true, shift: true }, browsers: ['chrome', 'firefox'], what: 'previous tab' },
  { chord: { key: 'PageDown', ctrl: true }, browsers: ['chrome', 'firefox'], what: 'next tab' },
  { chord: { key: 'PageUp', ctrl: true }, browsers: ['chrome', 'firefox'], what: 'previous tab' },
  { chord: { key: 'F4', ctrl: true }, browsers: ['chrome', 'firefox'], what: 'close tab' },
  { chord: { key: 'F4', alt: true }, browsers: ['chrome', 'firefox'], what: 'close window' },
];

function same(a: Chord, b: Chord): boolean {
  return (
    a.key.toLowerCase() === b.key.toLowerCase() &&
    !a.mod === !b.mod &&
    !a.ctrl === !b.ctrl &&
    !a.shift === !b.shift &&
    !a.alt === !b.alt &&
    !a.twice === !b.twice
  );
}

/** True when `browser` delivers `chord` to a page in a normal tab (it is not in BROWSER_KEEPS for that browser). */
export function reachesPage(chord: Chord, browser: Browser = 'chrome'): boolean {
  return !BROWSER_KEEPS.some((k) => k.browsers.includes(browser) && same(k.chord, chord));
}

/** The fields of a `KeyboardEvent` a chord is matched on. */
export interface KeyLike {
  key: string;
  /** The physical key (`KeyN`): matched for Alt+letter, which on macOS types a character (Option+N is a dead key). */
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/**
 * True when the key event is `chord` (one press of it; `twice` is counted by the caller). `mod` accepts Ctrl or
 * Cmd, so the same table serves every platform; the other modifiers must be exactly as the chord says.
 */
export function chordMatches(e: KeyLike, chord: Chord): boolean {
  const mod = e.ctrlKey || e.metaKey;
  if (chord.mod ? !mod : chord.ctrl ? !e.ctrlKey || e.metaKey : mod) return false;
  if (e.shiftKey !== Boolean(chord.shift) || e.altKey !== Boolean(chord.alt)) return false;
  if (chord.key.length === 1 && /[a-z]/.test(chord.key)) {
    if (e.key.toLowerCase() === chord.key) return true;
    return chord.alt === true && e.code === `Key${chord.key.toUpperCase()}`;
  }
  return e.key === chord.key;
}

/** The table's row of a command. Throws for an id not in the table (a bug: ids are a closed union). */
export function commandKeys(id: CommandId): CommandKeys {
  const row = KEYMAP.find((c) => c.id === id);
  if (!row) throw new Error(`No keymap row for ${id}`);
  return row;
}

const NAMES: Record<string, [pc: string, mac: string]> = {
  ArrowDown: ['↓', '↓'],
  ArrowUp: ['↑', '↑'],
  Backspace: ['Backspace', '⌫'],
  Enter: ['Enter', '↩'],
  Escape: ['Esc', 'Esc'],
};

/**
 * A chord as people write it: `pc` → "Ctrl+Shift+P", `mac` → "⇧⌘P" (Apple's order ⌃⌥⇧⌘), `both` → "Ctrl/Cmd+Shift+P" (the README's and
 * the tooltips' form). Esc twice reads "Esc Esc".
 */
export function formatChord(chord: Chord, style: 'pc' | 'mac' | 'both' = 'both'): string {
  const name = NAMES[chord.key];
  const key = name ? name[style === 'mac' ? 1 : 0] : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  if (chord.twice) return `${key} ${key}`;
  if (style === 'mac') {
    const mods = `${chord.ctrl ? '⌃' : ''}${chord.alt ? '⌥' : ''}${chord.shift ? '⇧' : ''}${chord.mod ? '⌘' : ''}`;
    return `${mods}${key}`;
  }
  const mods = [
    chord.mod ? (style === 'pc' ? 'Ctrl' : 'Ctrl/Cmd') : '',
    chord.ctrl ? 'Ctrl' : '',
    chord.alt ? 'Alt' : '',
    chord.shift ? 'Shift' : '',
  ].filter(Boolean);
  return [...mods, key].join('+');
}

/** An Electron menu accelerator for a chord with `mod` ("CmdOrCtrl+Shift+P"); undefined for any other chord. */
export function toAccelerator(chord: Chord): string | undefined {
  if (!chord.mod || chord.twice) return undefined;
  const key = chord.key.length === 1 ? chord.key.toUpperCase() : chord.key;
  return ['CmdOrCtrl', chord.alt ? 'Alt' : '', chord.shift ? 'Shift' : '', key].filter(Boolean).join('+');
}

/** The accelerator the desktop menu shows for a command: its first chord with Ctrl/Cmd, if any. */
export function menuAccelerator(id: CommandId): string | undefined {
  for (const c of commandKeys(id).keys) {
    const a = toAccelerator(c);
    if (a) return a;
  }
  return undefined;
}

/**
 * The README's "Keyboard" table, generated from KEYMAP (keymap.test.ts holds README.md to it): one row per command
 * that has keys, its keys in a browser tab and the desktop app's extra ones.
 */
export function keymapMarkdown(): string {
  const rows = KEYMAP.filter((c) => c.keys.length > 0).map((c) => {
    const tab = c.keys.filter((k) => reachesPage(k, 'chrome')).map((k) => `\`${formatChord(k)}\``);
    const desktop = c.keys.filter((k) => !reachesPage(k, 'chrome')).map((k) => `\`${formatChord(k)}\``);
    const where = c.scope === 'review' ? 'review panel' : 'anywhere';
    return `| ${c.label} | ${tab.join(', ')} | ${desktop.join(', ') || '—'} | ${where} |`;
  });
  return [
    '| Command | Keys (in a browser tab too) | Desktop app only | Where |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
