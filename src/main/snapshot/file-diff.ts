/**
 * Per-file diffs between two snapshot trees: the tree diff (equal subtrees skipped) gives the changed paths,
 * each side's blob is read, classified (binary when it holds a NUL byte in its first 8000 bytes — git's rule — or
 * is not valid UTF-8; too large over the size limit), and text sides are compared with jsdiff to count added and
 * deleted lines. `unifiedText` renders the same list as git-style unified diff text.
 */
import { formatPatch, OMIT_HEADERS, structuredPatch, type StructuredPatch } from 'diff';
import type { FileDiff } from '../../shared/model';
import type { ObjectDb } from './git/object-db';
import type { TreeChange } from './git/tree-read';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Text of a blob, or undefined when it is binary. */
function asText(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function blob(db: ObjectDb, oid: string | undefined): Buffer {
  if (!oid) return Buffer.alloc(0);
  const o = db.read(oid);
  if (!o) throw new Error(`snapshot store lacks blob ${oid}`);
  return o.content;
}

/** Builds the FileDiff of one tree change. Sides larger than `maxBytes` are not read into text. */
export function fileDiff(db: ObjectDb, c: TreeChange, maxBytes: number): FileDiff {
  return fileDiffWithHunks(db, c, maxBytes).diff;
}

/** The FileDiff and, for text, jsdiff's hunks (so the unified text does not diff the file a second time). */
export function fileDiffWithHunks(
  db: ObjectDb,
  c: TreeChange,
  maxBytes: number,
): { diff: FileDiff; patch?: StructuredPatch } {
  const status = !c.before ? 'added' : !c.after ? 'deleted' : 'modified';
  const out: FileDiff = { path: c.path, status, additions: 0, deletions: 0 };
  const a = blob(db, c.before?.oid);
  const b = blob(db, c.after?.oid);
  if (a.length > maxBytes || b.length > maxBytes) {
    out.tooLarge = true;
    return { diff: out };
  }
  const before = asText(a);
  const after = asText(b);
  if (before === undefined || after === undefined) {
    out.binary = true;
    return { diff: out };
  }
  if (c.before) out.before = before;
  if (c.after) out.after = after;
  const patch = structuredPatch(
    c.before ? `a/${c.path}` : '/dev/null',
    c.after ? `b/${c.path}` : '/dev/null',
    before,
    after,
    undefined,
    undefined,
    { context: 3 },
  );
  for (const h of patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith('+')) out.additions++;
      else if (l.startsWith('-')) out.deletions++;
    }
  }
  return { diff: out, patch };
}

/** Git-style unified diff text of `changes` (headers, mode lines, hunks; binaries as "Binary files … differ"). */
export function unifiedText(db: ObjectDb, changes: TreeChange[], maxBytes: number): string {
  const parts: string[] = [];
  changes.forEach((c) => {
    const { diff: d, patch } = fileDiffWithHunks(db, c, maxBytes);
    const lines = [`diff --git a/${c.path} b/${c.path}`];
    if (!c.before && c.after) lines.push(`new file mode ${c.after.mode}`);
    else if (c.before && !c.after) lines.push(`deleted file mode ${c.before.mode}`);
    else if (c.before && c.after && c.before.mode !== c.after.mode)
      lines.push(`old mode ${c.before.mode}`, `new mode ${c.after.mode}`);
    const from = c.before ? `a/${c.path}` : '/dev/null';
    const to = c.after ? `b/${c.path}` : '/dev/null';
    if (d.binary || d.tooLarge) {
      lines.push(`Binary files ${from} and ${to} differ`);
    } else if (patch && c.before?.oid !== c.after?.oid) {
      lines.push(`--- ${from}`, `+++ ${to}`);
      const hunks = formatPatch(patch, OMIT_HEADERS).replace(/\n$/, '');
      if (hunks !== '') lines.push(hunks);
    }
    parts.push(lines.join('\n'));
  });
  return parts.length === 0 ? '' : `${parts.join('\n')}\n`;
}
