/**
 * The numbers the safety rules use, in one place so the tests and the docs name the same values.
 * Sources: DESIGN §2 (block-anchor 0.65, ±25 %, context-aware 50 %). The per-line floor is Landfall's:
 * averaging hides one invented line among real ones (conformance anchor-one-hallucinated-line,
 * context-half-hallucinated, fixtures/bugs/README.md B08), so every compared line must clear the floor on its own. It is 0.75, not
 * 0.65, because a line more than a quarter rewritten is a different line, not recall drift: in the real corpus
 * (aider-flask-5063-a0 #8) a stale block whose lines had been changed on disk scored 0.736 per line and would have
 * overwritten that change; typo-level drift scores 0.8–0.98. With the floor above it, the 0.65 mean of the spec
 * can no longer decide alone; it is kept as the rung's documented threshold.
 */

/** Block-anchor: mean similarity of the middle lines must reach this. */
export const BLOCK_ANCHOR_THRESHOLD = 0.65;
/** Fidelity gate: every compared line of a similarity-scored candidate must reach this on its own. */
export const LINE_FLOOR = 0.75;
/** Block-anchor and context-aware need at least this many lines in oldString. */
export const MIN_ANCHOR_LINES = 3;
/** Block-anchor candidate size, relative to oldString's line count. */
export const SIZE_TOLERANCE = 0.25;
/** Context-aware: share of middle lines that must be equal after trimming. */
export const CONTEXT_EQUAL_SHARE = 0.5;
/** Span gate: a candidate may hold at most this factor (plus the slack below) of oldString's non-blank lines/chars. */
export const SPAN_FACTOR = 1.25;
export const SPAN_LINE_SLACK = 1;
export const SPAN_CHAR_SLACK = 16;
/** How many matches an `ambiguous` error lists by line range (the count is always complete). */
export const MAX_LISTED_MATCHES = 50;
