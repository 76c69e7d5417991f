/**
 * The ladder of line comparisons apply_patch locates anchors and hunks with (conformance README policy 5), strict
 * to loose — codex's ladder (`seek_sequence`), one file per pass:
 *
 *   exact     the line as it is                                  (exact.ts)
 *   trim_end  trailing whitespace ignored                        (trim-end.ts)
 *   trim      whitespace at both ends ignored                    (trim.ts)
 *   unicode   trimmed, and folded by the engines' one unicode fold (unicode.ts)
 *
 * A pass is a key function: two lines match at a pass when their keys are equal. Keys, not predicates, so a file
 * can be indexed once per pass (seek.ts). The pass only decides WHERE a hunk lands; the bytes kept are always the
 * file's own. seek.ts runs the passes in this order and stops at the first that matches at all.
 */
import type { Pass } from '../types';
import { exact } from './exact';
import { trim } from './trim';
import { trimEnd } from './trim-end';
import { unicode } from './unicode';

/** The ladder, strict to loose. */
export const PASSES: readonly Pass[] = [exact, trimEnd, trim, unicode];

/** The loosest pass (what the nearest-region search of a failed hunk compares under). */
export const LOOSEST: Pass = unicode;
