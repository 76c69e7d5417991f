/**
 * Inverse distortion: build the text that replaces a candidate's span (DESIGN §2; conformance policy 2).
 *
 * newString is taken verbatim, except where the rung tolerated a distortion that the model applied to oldString
 * and newString alike; then the same correction is applied to newString, in this order:
 * 1. line_prefix — cut read-tool prefixes when every line of newString has one;
 * 2. escape — unescape newString when it is over-escaped the same way as oldString (escape-normalized.ts);
 * 3. boundary — newString's leading (trailing) whitespace goes when it is the end (start) of the whitespace
 *    oldString had before (after) its core, i.e. the model put the same boundary around both;
 * 4. trailing_newline — the span holds whole lines without the last line break: a newString ending in a line
 *    break loses that one, and an empty newString (deletion) takes the line break with it;
 * 5. indentation — for line-aligned spans, rebase newString into the file's indentation frame (indentation.ts);
 *    when no single indentation fits, the replacement carries `indentConflict` and the place is refused.
 * The exact rung tolerates nothing, so its newString is written verbatim (fixtures/bugs/README.md B13) — unless the match began inside a
 * line's indentation and was widened to the line start (gates.ts alignToIndentation), where step 5 applies.
 */
import type { Candidate } from './types';
import { rebaseIndentation } from './indentation';
import { sameEscaping, unescapeText } from './replacers/escape-normalized';
import { stripLinePrefixes } from './replacers/line-number-prefix';

/** The replacement for one candidate: text to write, the (possibly extended) span end, and what was corrected. */
export interface Replacement {
  text: string;
  end: number;
  corrections: readonly string[];
  /** Set when newString cannot be written in one indentation at this place (indentation.ts): refuse, never land. */
  indentConflict?: string;
}

function cutPrefixes(text: string): string | undefined {
  const stripped = stripLinePrefixes(text.split('\n'));
  return stripped ? stripped.lines.join('\n') : undefined;
}

const NONE: readonly string[] = [];

/** Apply the candidate's distortions to `newString` (see module doc). `content` is the normalised file text. */
export function buildReplacement(
  content: string,
  candidate: Candidate,
  oldString: string,
  newString: string,
): Replacement {
  if (candidate.distortions.length === 0 && !candidate.lineAligned) {
    return { text: newString, end: candidate.end, corrections: NONE };
  }
  let text = newString;
  let end = candidate.end;
  const corrections: string[] = [];
  for (const d of candidate.distortions) {
    if (d.kind === 'line_prefix') {
      const cut = cutPrefixes(text);
      if (cut !== undefined) {
        text = cut;
        corrections.push('line-number prefixes removed from newString');
      }
    } else if (d.kind === 'escape') {
      if (sameEscaping(oldString, text)) {
        text = unescapeText(text);
        corrections.push('escape sequences in newString unescaped');
      }
    } else if (d.kind === 'boundary') {
      // new's own boundary whitespace goes when it is the part of old's boundary next to the core
      const before = text;
      const lead = /^\s*/.exec(text)?.[0] ?? '';
      if (lead && d.leading.endsWith(lead)) text = text.slice(lead.length);
      const trail = /\s*$/.exec(text)?.[0] ?? '';
      if (trail && d.trailing.startsWith(trail)) text = text.slice(0, text.length - trail.length);
      if (text !== before) corrections.push("whitespace around newString trimmed like oldString's");
    } else if (text.length === 0) {
      if (content[end] === '\n') end++;
    } else if (text.endsWith('\n')) {
      text = text.slice(0, -1);
    }
  }
  if (candidate.lineAligned) {
    const rebased = rebaseIndentation(candidate.matched, content.slice(candidate.start, end), text);
    if (rebased.conflict !== undefined) return { text, end, corrections, indentConflict: rebased.conflict };
    if (rebased.changed) {
      text = rebased.text;
      corrections.push("newString's indentation rebased to the file's");
    }
  }
  return { text, end, corrections };
}
