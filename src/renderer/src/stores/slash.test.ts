/** Slash commands: what counts as a command, and the menu's matches. */
import { describe, expect, it } from 'vitest';
import { commandWord, slashMatches } from './slash';

describe('slash commands', () => {
  it('a leading /word is a command; a path or a mid-sentence slash is a message', () => {
    expect(['/undo', ' /redo  ', '/replay sample', '/Frobnicate now'].map(commandWord)).toEqual([
      'undo',
      'redo',
      'replay',
      'frobnicate',
    ]);
    expect(['/usr/bin/env is missing', 'use /undo', '//comment', '/'].map(commandWord)).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('the menu lists matching commands until a space follows the word', () => {
    expect(slashMatches('/re').map((c) => c.name)).toEqual(['redo', 'replay']);
    expect(slashMatches('/').length).toBe(4);
    expect(slashMatches('/co').map((c) => c.name)).toEqual(['compact']);
    expect(slashMatches('/undo now')).toEqual([]);
    expect(slashMatches('hello')).toEqual([]);
  });
});
