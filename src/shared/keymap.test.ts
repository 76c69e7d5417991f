/**
 * The key table's rules: every command with keys has one a browser tab delivers (Chrome and Firefox), no two
 * commands of one scope share a chord, the desktop menu's ids are the table's, the README's "Keyboard" section is
 * the table, and chords match key events as a browser reports them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppCommandSchema } from './contract';
import {
  BROWSER_KEEPS,
  COMMAND_IDS,
  KEYMAP,
  chordMatches,
  formatChord,
  keymapMarkdown,
  menuAccelerator,
  reachesPage,
  toAccelerator,
  type Chord,
  type KeyLike,
} from './keymap';

const press = (key: string, mods: Partial<Omit<KeyLike, 'key'>> = {}): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('the key table', () => {
  it('has one row per command id, and the menu sends only ids of the table', () => {
    expect(KEYMAP.map((c) => c.id).sort()).toEqual([...COMMAND_IDS].sort());
    for (const id of AppCommandSchema.shape.command.options) expect(COMMAND_IDS).toContain(id);
  });

  it('gives every command that has keys one a browser tab delivers, in Chrome and in Firefox', () => {
    const withKeys = KEYMAP.filter((c) => c.keys.length > 0);
    for (const browser of ['chrome', 'firefox'] as const)
      for (const c of withKeys) expect([c.id, c.keys.some((k) => reachesPage(k, browser))]).toEqual([c.id, true]);
    // The keys the issue names: reject and new session have a browser key besides Ctrl/Cmd+N.
    expect(reachesPage({ key: 'n', mod: true })).toBe(false);
    expect(reachesPage({ key: 'n', alt: true })).toBe(true);
    expect(reachesPage({ key: 'p', mod: true, shift: true }, 'firefox')).toBe(false);
    expect(reachesPage({ key: 'p', mod: true, shift: true }, 'chrome')).toBe(true);
  });

  it('binds no chord twice within a scope', () => {
    for (const scope of ['window', 'review'] as const) {
      const seen = new Map<string, string>();
      for (const c of KEYMAP.filter((r) => r.scope === scope))
        for (const k of c.keys) {
          const name = formatChord(k, 'pc');
          expect([name, seen.get(name) ?? c.id]).toEqual([name, c.id]);
          seen.set(name, c.id);
        }
    }
  });

  it('never binds a key Chrome keeps without another key for the same command', () => {
    const kept = KEYMAP.flatMap((c) => c.keys.filter((k) => !reachesPage(k)).map((k) => `${c.id} ${formatChord(k)}`));
    expect(kept).toEqual(['session.new Ctrl/Cmd+N', 'review.reject Ctrl/Cmd+N']);
    expect(BROWSER_KEEPS.length).toBeGreaterThan(10);
  });

  it('is what the README says (the section between the keymap markers)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section =
      /<!-- prettier-ignore-start -->\n([\s\S]*?)\n<!-- prettier-ignore-end -->\n<!-- keymap:end -->/.exec(readme);
    expect(section?.[1]).toBe(keymapMarkdown());
  });

  it('gives the desktop menu its accelerators from the table', () => {
    expect(menuAccelerator('view.palette')).toBe('CmdOrCtrl+Shift+P');
    expect(menuAccelerator('session.new')).toBe('CmdOrCtrl+N');
    expect(menuAccelerator('view.settings')).toBe('CmdOrCtrl+,');
    expect(menuAccelerator('history.undo')).toBeUndefined();
    expect(toAccelerator({ key: 'y', alt: true })).toBeUndefined();
  });
});

describe('chords', () => {
  it('match Ctrl or Cmd for mod, and exactly the other modifiers', () => {
    const c: Chord = { key: 'y', mod: true };
    expect(chordMatches(press('y', { ctrlKey: true }), c)).toBe(true);
    expect(chordMatches(press('Y', { metaKey: true }), c)).toBe(true);
    expect(chordMatches(press('y'), c)).toBe(false);
    expect(chordMatches(press('y', { ctrlKey: true, shiftKey: true }), c)).toBe(false);
    expect(chordMatches(press('y', { ctrlKey: true, altKey: true }), c)).toBe(false);
    expect(chordMatches(press('y', { altKey: true }), { key: 'y', alt: true })).toBe(true);
    expect(chordMatches(press('y', { altKey: true, ctrlKey: true }), { key: 'y', alt: true })).toBe(false);
  });

  it('match Alt+letter by the physical key too (macOS Option+N types a dead key)', () => {
    expect(chordMatches(press('Dead', { altKey: true, code: 'KeyN' }), { key: 'n', alt: true })).toBe(true);
    expect(chordMatches(press('¥', { altKey: true, code: 'KeyY' }), { key: 'y', alt: true })).toBe(true);
    expect(chordMatches(press('Dead', { ctrlKey: true, code: 'KeyN' }), { key: 'n', mod: true })).toBe(false);
  });

  it('match named keys and Shift+letter', () => {
    expect(chordMatches(press('ArrowDown', { altKey: true }), { key: 'ArrowDown', alt: true })).toBe(true);
    expect(chordMatches(press('ArrowDown'), { key: 'ArrowDown', alt: true })).toBe(false);
    expect(chordMatches(press('P', { ctrlKey: true, shiftKey: true }), { key: 'p', mod: true, shift: true })).toBe(
      true,
    );
    expect(chordMatches(press('F1'), { key: 'F1' })).toBe(true);
    expect(chordMatches(press('Tab', { ctrlKey: true }), { key: 'Tab', ctrl: true })).toBe(true);
    expect(chordMatches(press('Tab', { metaKey: true }), { key: 'Tab', ctrl: true })).toBe(false);
  });

  it('are written per platform', () => {
    const c: Chord = { key: 'p', mod: true, shift: true };
    expect([formatChord(c, 'pc'), formatChord(c, 'mac'), formatChord(c)]).toEqual([
      'Ctrl+Shift+P',
      '⇧⌘P',
      'Ctrl/Cmd+Shift+P',
    ]);
    expect(formatChord({ key: 'n', alt: true }, 'mac')).toBe('⌥N');
    expect(formatChord({ key: 'Escape', twice: true })).toBe('Esc Esc');
    expect(formatChord({ key: 'ArrowUp', alt: true }, 'pc')).toBe('Alt+↑');
  });
});
