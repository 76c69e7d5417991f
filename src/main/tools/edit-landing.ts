/**
 * Landing an edit on a decoded file text, around the pure engine (`replace` from src/main/engine/edit):
 *   - line endings: the engine matches on LF text and writes the replacement with the ending of the span it
 *     replaced (src/main/engine/edit/line-endings.ts), so a CRLF file stays CRLF and an LF file never gains a CR (fixtures/bugs/README.md B16);
 *   - BOM: a U+FEFF the model copied is dropped (the file's BOM lives in its encoding info; fixtures/bugs/README.md B18);
 *   - an edit whose strings differ only in line endings is `no_change`, said as such (fixtures/bugs/README.md B14);
 *   - stale files (changed on disk since the session saw them): only an exact, unique occurrence of oldString
 *     may land (the region the model remembers is intact, fixtures/bugs/README.md B28); anything looser is answered `stale`, never
 *     `not_found`, because the model's view is out of date.
 */
import { fail, ok, type Result } from '../../shared/errors';
import { replace, type ReplaceSuccess } from '../engine/edit';
import { lineEnding, stripBomChar, toLineEnding } from '../fs/text-file';

/** A landed edit: the engine's answer (new text, rung, 1-based line range in the text before the edit, corrections). */
export type Landing = ReplaceSuccess;

/** Rungs that only land where oldString is present byte for byte (after line-ending normalisation). */
const EXACT_RUNGS = new Set<string>(['simple', 'multi-occurrence']);

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Land `oldString` → `newString` on `text` (decoded, BOM removed). `stale` restricts landing to exact unique
 * occurrences. Errors: the engine's (`not_found`, `ambiguous`, `no_change`, `too_broad`, `already_applied`,
 * `search_budget`, `indentation_conflict`), and `stale` when `stale` is set and oldString is not exactly and uniquely present.
 */
export function landEdit(
  text: string,
  oldString: string,
  newString: string,
  options: { replaceAll: boolean; stale: boolean; rel: string },
): Result<Landing> {
  const oldIn = stripBomChar(oldString);
  const newIn = stripBomChar(newString);
  if (toLineEnding(oldIn, '\n') === toLineEnding(newIn, '\n')) {
    if (oldIn !== newIn) {
      const eol = lineEnding(text) === '\r\n' ? 'CRLF' : 'LF';
      return fail(
        'no_change',
        `oldString and newString differ only in line endings; ${options.rel} keeps its ${eol} line endings, so nothing would change.`,
        'Line endings are preserved automatically; send an edit that changes text.',
      );
    }
    return fail('no_change', 'oldString and newString are identical.', 'Send the text you want in newString.');
  }
  if (options.stale) {
    // The engine matches on LF text; count exact occurrences the same way.
    const n = countOccurrences(toLineEnding(text, '\n'), toLineEnding(oldIn, '\n'));
    if (n === 0 || (n > 1 && !options.replaceAll)) {
      return fail(
        'stale',
        `${options.rel} changed on disk since you last read it, and oldString is not found exactly once in its current content.`,
        `Read ${options.rel} again and base your edit on its current content.`,
        { path: options.rel, occurrences: n },
      );
    }
  }
  const landed = replace(text, oldIn, newIn, { replaceAll: options.replaceAll });
  if (!landed.ok) return landed;
  if (options.stale && !EXACT_RUNGS.has(landed.value.rung)) {
    return fail(
      'stale',
      `${options.rel} changed on disk since you last read it.`,
      `Read ${options.rel} again and base your edit on its current content.`,
      { path: options.rel },
    );
  }
  return ok(landed.value);
}
