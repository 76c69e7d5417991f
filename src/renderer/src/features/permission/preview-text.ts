/**
 * Turns a unified patch (a permission preview's FileChange.patch) into two texts a diff editor can show side by
 * side: the hunks' old lines and new lines, hunks separated by a marker line. Context lines go to both sides, so
 * the editor's own diff finds exactly the patch's changes. Pure.
 */

/** `{ before, after }` texts for the diff editor. An absent or empty patch yields two empty texts. */
export function previewTexts(patch: string | undefined): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  let inHunk = false;
  for (const line of (patch ?? '').split('\n')) {
    if (line.startsWith('@@')) {
      if (inHunk) {
        before.push('⋯');
        after.push('⋯');
      }
      inHunk = true;
      continue;
    }
    if (!inHunk || line.startsWith('\\')) continue;
    const body = line.slice(1);
    if (line.startsWith('-')) before.push(body);
    else if (line.startsWith('+')) after.push(body);
    else if (line.startsWith(' ') || line === '') {
      before.push(body);
      after.push(body);
    }
  }
  return { before: before.join('\n'), after: after.join('\n') };
}
