/**
 * The planner (pure): given a parsed patch and the current text of every file it updates or deletes, compute
 * every file's new text — the plan — before anything touches the disk (DESIGN §3, §10; codex's verify step).
 *
 * One Update's hunks are placed in patch order with a cursor that only moves forward: stacked anchors each move
 * the cursor just past their line; the hunk's old lines (context and "-" lines) are then located at or after the
 * cursor (seek.ts); the cursor moves past them. A hunk with only "+" lines appends at the end of the file. When
 * old lines ending in blank context lines are not found, they are tried once more without those trailing blanks
 * (a blank line a model put between sections is not a line of the file). All hunks are placed before the new
 * text is built, so a failing second hunk leaves nothing half-done (fixtures/bugs/README.md B25).
 *
 * Building the new text keeps the file's bytes: context lines are copied from the file (its spelling, its line
 * terminators), "-" lines are dropped, "+" lines are inserted verbatim with the file's first terminator, and the
 * final-newline state of the file is kept (edits.ts).
 */
import { fail, ok, type Result } from '../../../shared/errors';
import { applyEdits, editScript, type Placement } from './edits';
import { splitLines } from '../text/lines';
import { formatRegion, nearestRegion } from './nearest';
import { parsePatch } from './parse';
import { LineIndex, seekAnchor, seekBlock } from './seek';
import type { HunkLine, LineEdit, ParsedPatch, PatchHunk, PatchPlan, PlannedFile, UpdateOperation } from './types';

function where(op: UpdateOperation, hunk: PatchHunk, n: number): string {
  return `hunk ${n} of ${op.rawPath} (patch line ${hunk.patchLine})`;
}

function oldLinesOf(lines: readonly HunkLine[]): string[] {
  return lines.filter((l) => l.kind !== 'add').map((l) => l.text);
}

/** The hunk's lines without trailing blank context lines, or undefined when it has none to drop. */
function withoutTrailingBlanks(lines: readonly HunkLine[]): HunkLine[] | undefined {
  let end = lines.length;
  while (end > 0 && lines[end - 1]?.kind === 'context' && lines[end - 1]?.text.trim() === '') end--;
  return end === lines.length || end === 0 ? undefined : lines.slice(0, end);
}

function noMatch(
  op: UpdateOperation,
  hunk: PatchHunk,
  n: number,
  index: LineIndex,
  old: string[],
  cursor: number,
): Result<never> {
  const region = nearestRegion(index, old, cursor);
  const missing = region.missing.map((l) => JSON.stringify(l)).join(', ');
  const earlier = cursor > 0 ? seekBlock(index, old, 0, false) : { kind: 'none' as const };
  const parts = [`The old lines of ${where(op, hunk, n)} were not found after line ${cursor}.`];
  if (missing) parts.push(`Not in the file there: ${missing}.`);
  if (earlier.kind !== 'none')
    parts.push('They do occur earlier, before the previous hunk: hunks must follow the order of the file.');
  if (region.lines.length > 0)
    parts.push(`Nearest region (lines ${region.startLine}-${region.endLine}):\n${formatRegion(region)}`);
  return fail(
    'no_match',
    parts.join(' '),
    `Read ${op.rawPath} again and rebuild hunk ${n} from its current lines (context lines must match the file).`,
    {
      file: op.path,
      hunk: n,
      patchLine: hunk.patchLine,
      nearest: region,
    },
  );
}

/** Place one hunk at or after `cursor`. Returns the placement and the new cursor. */
function placeHunk(
  op: UpdateOperation,
  hunk: PatchHunk,
  n: number,
  index: LineIndex,
  cursor: number,
): Result<{ placement: Placement; cursor: number }> {
  let from = cursor;
  for (const anchor of hunk.anchors) {
    const hit = seekAnchor(index, anchor, from);
    if (!hit) {
      return fail(
        'no_match',
        `The anchor "@@ ${anchor}" of ${where(op, hunk, n)} was not found after line ${from}.`,
        `Use a line that exists in ${op.rawPath} (e.g. the enclosing class or function header) as the @@ anchor, or drop the anchor.`,
        {
          file: op.path,
          hunk: n,
          patchLine: hunk.patchLine,
          anchor,
        },
      );
    }
    from = hit.line + 1;
  }
  const total = index.lines.length;
  let lines = hunk.lines;
  let old = oldLinesOf(lines);
  if (old.length === 0) return ok({ placement: { start: total, lines }, cursor: total });
  let hit = seekBlock(index, old, from, hunk.endOfFile);
  const trimmed = hit.kind === 'none' ? withoutTrailingBlanks(lines) : undefined;
  if (trimmed) {
    const retry = seekBlock(index, oldLinesOf(trimmed), from, hunk.endOfFile);
    if (retry.kind !== 'none') {
      hit = retry;
      lines = trimmed;
      old = oldLinesOf(trimmed);
    }
  }
  if (hit.kind === 'none') return noMatch(op, hunk, n, index, old, from);
  if (hit.kind === 'ambiguous') {
    const at = hit.starts.map((s) => s + 1).join(', ');
    return fail(
      'ambiguous',
      `The old lines of ${where(op, hunk, n)} match ${hit.starts.length} places after line ${from} (starting at lines ${at}).`,
      'Add context lines that differ between those places, or an @@ anchor naming the enclosing section, so the hunk matches exactly one place.',
      {
        file: op.path,
        hunk: n,
        patchLine: hunk.patchLine,
        lines: hit.starts.map((s) => s + 1),
      },
    );
  }
  return ok({ placement: { start: hit.start, lines }, cursor: hit.start + old.length });
}

/** The new text and the edit script that made it (the alignment the commit diff is built from). */
export interface UpdatedText {
  text: string;
  edits: LineEdit[];
}

/**
 * Apply an Update's hunks to `text` (decoded, without BOM). Returns the new text. Errors: `no_match` (an anchor
 * or a hunk's old lines not found after the cursor; data: file, hunk, patchLine, nearest region), `ambiguous`
 * (data: the 1-based lines where the hunk matches).
 */
export function updateText(op: UpdateOperation, text: string): Result<string> {
  const updated = updateLines(op, text);
  return updated.ok ? ok(updated.value.text) : updated;
}

/** As `updateText`, also returning the line alignment (`origin`) the commit diff is built from. */
export function updateLines(op: UpdateOperation, text: string): Result<UpdatedText> {
  const file = splitLines(text);
  const wanted = op.hunks.flatMap((h) => [...h.anchors, ...oldLinesOf(h.lines)]);
  const index = new LineIndex(file.texts, wanted);
  const placements: Placement[] = [];
  let cursor = 0;
  for (let h = 0; h < op.hunks.length; h++) {
    const placed = placeHunk(op, op.hunks[h] as PatchHunk, h + 1, index, cursor);
    if (!placed.ok) return placed;
    placements.push(placed.value.placement);
    cursor = placed.value.cursor;
  }
  const edits = editScript(file, placements);
  return ok({ text: applyEdits(text, file, edits), edits });
}

function missingFile(path: string, kind: string): Result<never> {
  return fail(
    'missing_file',
    `${kind} File ${path}: the file does not exist or is not a regular file.`,
    `Check the path (list or glob), or use "*** Add File: ${path}" to create it.`,
    { file: path },
  );
}

/**
 * Plan a whole patch. `texts` maps every existing regular file the patch updates or deletes (normalised path, as
 * in the operations) to its current text. Errors: `missing_file` (an update/delete source absent from `texts`),
 * `no_match`, `ambiguous` — the first in patch order. Existence of Add/Move targets is the caller's check.
 */
export function planPatch(patch: ParsedPatch, texts: ReadonlyMap<string, string>): Result<PatchPlan> {
  const files: PlannedFile[] = [];
  for (const op of patch.operations) {
    if (op.kind === 'add') {
      files.push({ kind: 'add', path: op.path, before: null, after: op.contents });
      continue;
    }
    const before = texts.get(op.path);
    if (before === undefined) return missingFile(op.rawPath, op.kind === 'delete' ? 'Delete' : 'Update');
    if (op.kind === 'delete') {
      files.push({ kind: 'delete', path: op.path, before, after: null });
      continue;
    }
    const updated = updateLines(op, before);
    if (!updated.ok) return updated;
    const { text: after, edits } = updated.value;
    const moved = op.movePath !== undefined && op.movePath !== op.path;
    files.push(
      moved
        ? { kind: 'move', path: op.path, movePath: op.movePath, before, after, edits }
        : { kind: 'update', path: op.path, before, after, edits },
    );
  }
  return ok({ files });
}

/** The plan alone (no writes), for callers that want to preview: parse `text`, then plan it over `texts`. */
export function planFromText(text: string, texts: ReadonlyMap<string, string>): Result<PatchPlan> {
  const parsed = parsePatch(text);
  return parsed.ok ? planPatch(parsed.value, texts) : parsed;
}
