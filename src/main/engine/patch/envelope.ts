/**
 * The patch envelope (conformance README policy 1): the whole input is trimmed; a heredoc wrapper (`<<EOF`,
 * `<<'EOF'`, `<<"EOF"` as the first line, a last line ending in `EOF`) is unwrapped once — a wrapper with
 * mismatched quotes is a parse error, not something to guess at; one trailing "\r" is stripped from every line;
 * the first line trimmed must be `*** Begin Patch` and the last line trimmed `*** End Patch`. What is between
 * them is the body, each line paired with its 1-based line number in the original text for error messages.
 */
import { fail, ok, type Result } from '../../../shared/errors';

/** One body line and where it sits in the patch text (1-based). */
export interface BodyLine {
  text: string;
  line: number;
}

export const BEGIN_MARKER = '*** Begin Patch';
export const END_MARKER = '*** End Patch';

const HEREDOC_OPEN = /^<<\s*(EOF|'EOF'|"EOF")$/;
const HEREDOC_LIKE = /^<<\s*['"]?EOF['"]?$/;

/** Lines of the trimmed input, each with its original line number and one trailing "\r" removed. */
function numberedLines(text: string): BodyLine[] {
  const lead = text.length - text.trimStart().length;
  const firstLine = text.slice(0, lead).split('\n').length;
  const trimmed = text.trim();
  if (trimmed === '') return [];
  return trimmed
    .split('\n')
    .map((raw, i) => ({ text: raw.endsWith('\r') ? raw.slice(0, -1) : raw, line: firstLine + i }));
}

/** Drop blank lines at both ends (left inside a heredoc wrapper). */
function trimBlankEnds(lines: BodyLine[]): BodyLine[] {
  let a = 0;
  let b = lines.length;
  while (a < b && (lines[a] as BodyLine).text.trim() === '') a++;
  while (b > a && (lines[b - 1] as BodyLine).text.trim() === '') b--;
  return lines.slice(a, b);
}

function parseFail(message: string, hint: string, line?: number): Result<never> {
  return fail('parse', message, hint, line === undefined ? undefined : { patchLine: line });
}

const ENVELOPE_HINT = `Send the patch as "${BEGIN_MARKER}", the file operations, then "${END_MARKER}" on its own last line.`;

/**
 * Unwrap the envelope of `text`. Returns the body lines between the markers. Errors (`parse`): empty input,
 * a malformed heredoc wrapper, a missing or misplaced Begin/End marker.
 */
export function unwrapEnvelope(text: string): Result<BodyLine[]> {
  let lines = numberedLines(text);
  if (lines.length === 0) return parseFail('The patch is empty.', ENVELOPE_HINT);
  const first = (lines[0] as BodyLine).text.trim();
  if (first.startsWith('<<')) {
    const last = (lines[lines.length - 1] as BodyLine).text.trim();
    if (!HEREDOC_OPEN.test(first)) {
      const why = HEREDOC_LIKE.test(first) ? 'its quotes do not match' : 'it is not <<EOF, <<\'EOF\' or <<"EOF"';
      return parseFail(
        `The heredoc wrapper "${first}" on line 1 is malformed: ${why}.`,
        'Send the patch text itself, without a heredoc wrapper (or with a well-formed one).',
        lines[0]?.line,
      );
    }
    if (lines.length < 3 || !last.endsWith('EOF')) {
      return parseFail(
        `The heredoc wrapper "${first}" is not closed by a last line ending in EOF.`,
        'Close the heredoc with EOF, or send the patch text without a wrapper.',
        lines[0]?.line,
      );
    }
    lines = trimBlankEnds(lines.slice(1, -1));
  }
  const head = lines[0];
  if (!head || head.text.trim() !== BEGIN_MARKER) {
    return parseFail(
      `The first line must be "${BEGIN_MARKER}", found ${JSON.stringify(head?.text ?? '')}.`,
      ENVELOPE_HINT,
      head?.line,
    );
  }
  const tail = lines[lines.length - 1] as BodyLine;
  if (lines.length < 2 || tail.text.trim() !== END_MARKER) {
    return parseFail(
      `The last line must be "${END_MARKER}", found ${JSON.stringify(tail.text)} on line ${tail.line}.`,
      ENVELOPE_HINT,
      tail.line,
    );
  }
  return ok(lines.slice(1, -1));
}
