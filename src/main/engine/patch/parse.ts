/**
 * The patch parser (pure): envelope → file operations → hunks. Grammar (conformance README policy 1–2):
 *
 *   patch     := Begin  op+  End
 *   op        := "*** Add File: " path  ("+" line)*
 *              | "*** Delete File: " path
 *              | "*** Update File: " path  ["*** Move to: " path]  hunk*
 *   hunk      := ("@@" [anchor])*  hunkLine+  ["*** End of File"]
 *   hunkLine  := " " text | "-" text | "+" text | ""        (a bare empty line is an empty context line)
 *
 * Headers may carry surrounding whitespace; blank lines between operations are ignored. The first hunk of an
 * Update may omit its `@@` line. Consecutive `@@ text` lines stack (class, then method); a bare `@@` directly
 * before or after another `@@` line is an empty hunk. A unified-diff style
 * header (`@@ -1,3 +1,4 @@ text`) counts as `@@ text`. Strictness (why this parser exists): every line inside a
 * hunk must be one of the forms above — anything else is a `parse` error naming the line, never silently dropped
 * (opencode drops it); a hunk with no lines, an operation-less patch, an Update with neither hunks nor a move
 * (a Move to its own path is no move), a path naming the root itself or holding a NUL byte, and two
 * operations on one normalised path (sources and move destinations alike) are `parse` errors.
 */
import { fail, ok, type Result } from '../../../shared/errors';
import { unwrapEnvelope, type BodyLine } from './envelope';
import { normalisePatchPath } from './paths';
import type { HunkLine, ParsedPatch, PatchHunk, PatchOperation, UpdateOperation } from './types';

const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const EOF_MARKER = '*** End of File';
const UNIFIED_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

type Step<T> = Result<{ value: T; next: number }>;

function parseFail(line: BodyLine | undefined, message: string, hint: string): Result<never> {
  const where = line ? `Patch line ${line.line}: ` : '';
  return fail('parse', where + message, hint, line ? { patchLine: line.line, text: line.text } : undefined);
}

/** The path after a header prefix, or a parse error when it is empty. */
function headerPath(line: BodyLine, prefix: string): Result<string> {
  const raw = line.text.trim().slice(prefix.length).trim();
  if (raw === '')
    return parseFail(
      line,
      `"${prefix}" names no file.`,
      `Write the path after "${prefix}", relative to the project root.`,
    );
  if (raw.includes('\0'))
    return parseFail(line, `The path after "${prefix}" contains a NUL byte.`, 'Write the file path as plain text.');
  if (normalisePatchPath(raw).path === '') {
    return parseFail(
      line,
      `"${prefix} ${raw}" names the project root itself, not a file.`,
      `Write the path of a file after "${prefix}", relative to the project root.`,
    );
  }
  return ok(raw);
}

/**
 * Text of an `@@` line as an anchor ('' for a bare `@@` or a unified-diff header without text). One separating
 * space is dropped; the rest keeps its spelling (indentation included), so the exact pass can tell an indented
 * method from a top-level one — looser passes still ignore the whitespace.
 */
function anchorText(text: string): string {
  const unified = UNIFIED_HEADER.exec(text);
  const rest = unified ? text.slice(unified[0].length) : text.slice(2);
  if (rest.trim() === '') return '';
  return (rest.startsWith(' ') ? rest.slice(1) : rest).trimEnd();
}

function hunkLine(text: string): HunkLine | undefined {
  if (text === '') return { kind: 'context', text: '' };
  const marker = text[0];
  if (marker === ' ') return { kind: 'context', text: text.slice(1) };
  if (marker === '-') return { kind: 'delete', text: text.slice(1) };
  if (marker === '+') return { kind: 'add', text: text.slice(1) };
  return undefined;
}

function emptyHunk(line: BodyLine | undefined, path: string, n: number): Result<never> {
  return parseFail(
    line,
    `Hunk ${n} of ${path} has no lines.`,
    'Give every @@ hunk its context, "-" and "+" lines, or remove the empty @@.',
  );
}

/** Parse the hunks of an Update starting at body[i]; stops at the next unindented "***" line. */
function parseHunks(body: BodyLine[], start: number, path: string): Step<PatchHunk[]> {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  let opener: BodyLine | undefined;
  const close = (): Result<void> => {
    if (!current) return ok(undefined);
    if (current.lines.length === 0) return emptyHunk(opener, path, hunks.length + 1);
    hunks.push(current);
    current = undefined;
    return ok(undefined);
  };
  let i = start;
  for (; i < body.length; i++) {
    const line = body[i] as BodyLine;
    if (line.text.startsWith('***')) {
      if (line.text.trimEnd() !== EOF_MARKER) break;
      if (!current || current.lines.length === 0) return emptyHunk(line, path, hunks.length + 1);
      current.endOfFile = true;
      const closed = close();
      if (!closed.ok) return closed;
      continue;
    }
    if (line.text.startsWith('@@')) {
      const anchor = anchorText(line.text);
      if (current && current.lines.length === 0) {
        // `@@ class A:` then `@@ def f():` stack; a bare `@@` after an `@@` line (or before one) is an empty hunk.
        if (anchor === '' || current.anchors.length === 0) return emptyHunk(opener, path, hunks.length + 1);
        current.anchors.push(anchor);
        continue;
      }
      const closed = close();
      if (!closed.ok) return closed;
      current = { patchLine: line.line, anchors: anchor === '' ? [] : [anchor], lines: [], endOfFile: false };
      opener = line;
      continue;
    }
    const parsed = hunkLine(line.text);
    if (!parsed) {
      return parseFail(
        line,
        `${JSON.stringify(line.text)} inside a hunk of ${path} is not a context (" "), "-" or "+" line.`,
        'Prefix every hunk line with a space (unchanged), "-" (removed) or "+" (added); start a new hunk with @@.',
      );
    }
    if (!current) {
      // A blank (or whitespace-only) line outside any hunk — before a header-less first hunk, after an End of
      // File marker, after a Move with no hunks — separates sections; it is not context of a hunk not yet begun.
      if (line.text.trim() === '') continue;
      if (hunks.length > 0)
        return parseFail(
          line,
          `A hunk line follows "${EOF_MARKER}" in ${path}.`,
          `"${EOF_MARKER}" ends a hunk; start the next hunk with @@.`,
        );
      current = { patchLine: line.line, anchors: [], lines: [], endOfFile: false };
      opener = line;
    }
    current.lines.push(parsed);
  }
  const closed = close();
  if (!closed.ok) return closed;
  return ok({ value: hunks, next: i });
}

function parseUpdate(body: BodyLine[], i: number): Step<UpdateOperation> {
  const header = body[i] as BodyLine;
  const raw = headerPath(header, UPDATE);
  if (!raw.ok) return raw;
  const op: UpdateOperation = {
    kind: 'update',
    path: normalisePatchPath(raw.value).path,
    rawPath: raw.value,
    patchLine: header.line,
    hunks: [],
  };
  let next = i + 1;
  const moveLine = body[next];
  if (moveLine && moveLine.text.trim().startsWith(MOVE)) {
    const dest = headerPath(moveLine, MOVE);
    if (!dest.ok) return dest;
    op.rawMovePath = dest.value;
    op.movePath = normalisePatchPath(dest.value).path;
    next++;
  }
  const hunks = parseHunks(body, next, raw.value);
  if (!hunks.ok) return hunks;
  op.hunks = hunks.value.value;
  if (op.hunks.length === 0 && (op.movePath === undefined || op.movePath === op.path)) {
    const why = op.movePath === undefined ? '' : ' (its Move to names the same path, so it would change nothing)';
    return parseFail(
      header,
      `Update File ${raw.value} has no hunks${why}.`,
      'Add at least one @@ hunk with the lines to change, or remove the operation.',
    );
  }
  return ok({ value: op, next: hunks.value.next });
}

function parseAdd(body: BodyLine[], i: number): Step<PatchOperation> {
  const header = body[i] as BodyLine;
  const raw = headerPath(header, ADD);
  if (!raw.ok) return raw;
  let next = i + 1;
  let contents = '';
  for (; next < body.length && (body[next] as BodyLine).text.startsWith('+'); next++)
    contents += (body[next] as BodyLine).text.slice(1) + '\n';
  return ok({
    value: {
      kind: 'add',
      path: normalisePatchPath(raw.value).path,
      rawPath: raw.value,
      patchLine: header.line,
      contents,
    },
    next,
  });
}

function parseOperation(body: BodyLine[], i: number): Step<PatchOperation> {
  const line = body[i] as BodyLine;
  const t = line.text.trim();
  if (t.startsWith(ADD)) return parseAdd(body, i);
  if (t.startsWith(UPDATE)) return parseUpdate(body, i);
  if (t.startsWith(DELETE)) {
    const raw = headerPath(line, DELETE);
    if (!raw.ok) return raw;
    return ok({
      value: { kind: 'delete', path: normalisePatchPath(raw.value).path, rawPath: raw.value, patchLine: line.line },
      next: i + 1,
    });
  }
  return parseFail(
    line,
    `Expected "${ADD}", "${DELETE}" or "${UPDATE}", found ${JSON.stringify(line.text)}.`,
    'Start every file operation with one of those headers; inside an Add File every line starts with "+".',
  );
}

/** Two operations on one normalised path (a source or a move destination) are refused: one would overwrite the other. */
function checkDistinctPaths(ops: PatchOperation[], body: BodyLine[]): Result<void> {
  const seen = new Map<string, number>();
  for (const op of ops) {
    const targets =
      op.kind === 'update' && op.movePath !== undefined && op.movePath !== op.path ? [op.path, op.movePath] : [op.path];
    for (const target of targets) {
      const earlier = seen.get(target);
      if (earlier !== undefined) {
        const line = body.find((l) => l.line === op.patchLine);
        return parseFail(
          line,
          `Two operations target ${target} (lines ${earlier} and ${op.patchLine}).`,
          'Merge all changes to one file into a single Update File operation.',
        );
      }
      seen.set(target, op.patchLine);
    }
  }
  return ok(undefined);
}

/**
 * Parse a patch text (the whole tool input). Pure. Returns the operations in patch order with normalised paths.
 * Errors: `parse` (data: `patchLine`, `text`) — see the module docstring for every case.
 */
export function parsePatch(text: string): Result<ParsedPatch> {
  const envelope = unwrapEnvelope(text);
  if (!envelope.ok) return envelope;
  const body = envelope.value;
  const operations: PatchOperation[] = [];
  let i = 0;
  while (i < body.length) {
    if ((body[i] as BodyLine).text.trim() === '') {
      i++;
      continue;
    }
    const op = parseOperation(body, i);
    if (!op.ok) return op;
    operations.push(op.value.value);
    i = op.value.next;
  }
  if (operations.length === 0) {
    return fail(
      'parse',
      'The patch has no file operations.',
      'Add at least one "*** Add File:", "*** Update File:" or "*** Delete File:" section.',
    );
  }
  const distinct = checkDistinctPaths(operations, body);
  if (!distinct.ok) return distinct;
  return ok({ operations });
}
