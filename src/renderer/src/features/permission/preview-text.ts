/**
 * Turns a unified patch (a permission preview's FileChange.patch) into two texts a diff editor can show side by
 * side: the hunks' old lines and new lines, hunks separated by a marker line. Context lines go to both sides, so
 * the editor's own diff finds exactly the patch's changes. Every line ends with a newline (the patch's own final
 * newline is no extra empty line), except where the patch says "\ No newline at end of file". Pure.
 *
 * A new file (nothing before) or a deleted one (nothing after) is no diff at all: Monaco's diff takes an empty side
 * as a whole-text replacement (an empty line 1 removed, and the other side's final empty line added), so
 * `wholeFile` gives the one side's lines, every one added or removed, for a plain editor.
 */

/** `{ before, after }` texts for the diff editor. An absent or empty patch yields two empty texts. */
export function previewTexts(patch: string | undefined): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  let inHunk = false;
  let beforeEnds = true;
  let afterEnds = true;
  let last: '-' | '+' | ' ' | null = null;
  const lines = (patch ?? '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // the patch's final newline ends its last line
  for (const line of lines) {
    if (line.startsWith('@@')) {
      if (inHunk) {
        before.push('⋯');
        after.push('⋯');
      }
      inHunk = true;
      last = null;
      continue;
    }
    if (!inHunk) continue;
    if (line.startsWith('\\')) {
      // "\ No newline at end of file": the line above is its side's last, with no newline after it.
      if (last === '-' || last === ' ') beforeEnds = false;
      if (last === '+' || last === ' ') afterEnds = false;
      continue;
    }
    const body = line.slice(1);
    if (line.startsWith('-')) {
      before.push(body);
      last = '-';
    } else if (line.startsWith('+')) {
      after.push(body);
      last = '+';
    } else if (line.startsWith(' ') || line === '') {
      before.push(body);
      after.push(body);
      last = ' ';
    }
  }
  const text = (side: string[], ends: boolean): string =>
    side.length === 0 ? '' : side.join('\n') + (ends ? '\n' : '');
  return { before: text(before, beforeEnds), after: text(after, afterEnds) };
}

/**
 * A new or deleted file's preview: its lines (the final newline is no extra line) and whether they are all added or
 * all removed; null when both sides have lines (a diff shows it) or neither does.
 */
export function wholeFile(texts: {
  before: string;
  after: string;
}): { kind: 'added' | 'removed'; text: string } | null {
  const { before, after } = texts;
  if ((before === '') === (after === '')) return null;
  const text = before === '' ? after : before;
  return { kind: before === '' ? 'added' : 'removed', text: text.endsWith('\n') ? text.slice(0, -1) : text };
}
