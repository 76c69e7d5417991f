/**
 * Splits markdown into top-level blocks at blank lines that are outside fenced code, so a streaming message can
 * render block by block: finished blocks keep their text (and their memoized render), only the growing last one
 * is parsed again each frame — O(last block) per frame instead of O(whole message). Pure.
 */

/** The blocks of `text`, in order; joining them with "\n\n" gives back an equivalent document. */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
    }
    if (fence === null && line.trim() === '' && current.length > 0) {
      blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    if (line.trim() !== '' || fence !== null) current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
