/**
 * For the per-rung tests beside each replacer: run one rung on its own, as the decision loop would, and read what
 * it found. `content` and `old` are the engine's LF-normalised, BOM-less forms.
 */
import { makeContext } from '../search';
import { TextIndex } from '../text';
import type { Candidate, Replacer } from '../types';

/** Every candidate `rung` yields for `old` in `content`, in the order yielded. */
export function candidatesOf(rung: Replacer, content: string, old: string): Candidate[] {
  return [...rung.find(makeContext(new TextIndex(content), old))];
}

/** The text of `content` each candidate covers (what the loop would replace), in the order yielded. */
export function spansOf(rung: Replacer, content: string, old: string): string[] {
  return candidatesOf(rung, content, old).map((c) => content.slice(c.start, c.end));
}
