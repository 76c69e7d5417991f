/**
 * @-mentions in the composer (pure): `@src/a.ts` attaches a project file, `@src/a.ts:10-20` (or `:10`) lines of
 * it. Only paths the file tree lists count, so an e-mail address or a decorator stays text. The attached text is
 * added by main (services-files.ts attachmentText) as `<attached-file …>` blocks, which the transcript shows as
 * chips (splitAttached).
 */
import type { Attachment } from '../../../shared/files-schemas';

const MENTION = /(^|\s)@([^\s:@]+)(?::(\d+)(?:-(\d+))?)?/g;

/** The attachments of `text`: mentions of files in `files`, first mention of each path and range only. */
export function mentionsOf(text: string, files: ReadonlySet<string>): Attachment[] {
  const out: Attachment[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const path = m[2] as string;
    if (!files.has(path)) continue;
    const from = m[3] ? Number(m[3]) : undefined;
    const to = m[4] ? Number(m[4]) : from;
    const key = `${path}:${from ?? ''}-${to ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, ...(from !== undefined ? { from, to } : {}) });
  }
  return out;
}

/** The partial mention being typed just before `caret` (what follows the `@`), or null when none is. */
export function mentionQuery(text: string, caret: number): string | null {
  const m = /(^|\s)@([^\s:@]*)$/.exec(text.slice(0, caret));
  return m ? (m[2] as string) : null;
}

/** `text` with the mention being typed before `caret` replaced by `@path ` (and the new caret). */
export function completeMention(text: string, caret: number, path: string): { text: string; caret: number } {
  const before = text.slice(0, caret).replace(/@([^\s:@]*)$/, `@${path} `);
  return { text: before + text.slice(caret), caret: before.length };
}

export type UserTextPiece = { kind: 'text'; text: string } | { kind: 'file'; path: string; lines?: string };

const BLOCK = /\n*<attached-file path="([^"]+)"(?: lines="([^"]+)")?>\n[\s\S]*?\n<\/attached-file>/g;

/** A stored user message split into its own words and the files attached to it. */
export function splitAttached(text: string): UserTextPiece[] {
  const out: UserTextPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(BLOCK)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    out.push({ kind: 'file', path: m[1] as string, ...(m[2] ? { lines: m[2] } : {}) });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}
