/**
 * Elision detection for whole-file writes (fixtures/bugs/README.md B22): a model that rewrites a file often stands for the parts it
 * did not change with a placeholder comment ("// ... rest of the code unchanged"), and writing that content
 * wipes those parts. A write is refused when BOTH hold:
 *   - the new content has a placeholder line that the old file did not have (a comment — or a bare "..." — that
 *     says code was left out), and
 *   - the file shrinks a lot (at least 5 lines and at least 20% of its lines disappear).
 * Either one alone is normal (a real comment about "the rest of the code"; a legitimate big deletion), so
 * neither alone blocks.
 */

const COMMENT_LEAD = String.raw`(?:\/\/+|#+|\/\*+|\*|<!--|--|;+|%|'|REM\b)`;
const PLACEHOLDER_WORDS = [
  String.raw`(?:rest|remainder) of (?:the )?(?:\w+ )?(?:code|file|class|function|method|implementation|content|module|component|body|lines?|functions|methods)`,
  String.raw`(?:existing|previous|other|remaining|original|unchanged|same) (?:\w+ )?(?:code|content|methods|functions|implementation|imports|lines|logic|tests)`,
  String.raw`(?:unchanged|omitted|elided|truncated|as before|same as (?:before|above))\b`,
  String.raw`\.\.\.\s*(?:more|etc|\(.*\))?`,
  String.raw`…`,
];
const PLACEHOLDER_LINE = new RegExp(
  String.raw`^\s*${COMMENT_LEAD}\s*(?:\.\.\.|…)?\s*(?:\[?\s*)?(?:${PLACEHOLDER_WORDS.join('|')})`,
  'i',
);
const BARE_ELLIPSIS = /^\s*(?:\.\.\.|…)\s*$/;

function lines(text: string): string[] {
  const out = text.split(/\r?\n/);
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** Placeholder lines of `after` that are not lines of `before` (trimmed comparison). */
export function newPlaceholderLines(before: string, after: string): string[] {
  const old = new Set(lines(before).map((l) => l.trim()));
  return lines(after).filter((l) => (PLACEHOLDER_LINE.test(l) || BARE_ELLIPSIS.test(l)) && !old.has(l.trim()));
}

/**
 * The elision verdict for replacing `before` with `after`: undefined when fine, else the placeholder lines and
 * the line counts (for the error the model reads).
 */
export function detectElision(
  before: string,
  after: string,
): { placeholders: string[]; oldLines: number; newLines: number } | undefined {
  const oldLines = lines(before).length;
  const newLines = lines(after).length;
  const lost = oldLines - newLines;
  if (lost < 5 || lost < oldLines * 0.2) return undefined;
  const placeholders = newPlaceholderLines(before, after);
  return placeholders.length > 0 ? { placeholders, oldLines, newLines } : undefined;
}
