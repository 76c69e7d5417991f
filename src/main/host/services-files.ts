/**
 * The file view's side in main: the project's file tree (the tools' walker, so the same ignore rules: .gitignore
 * at every level, .git/info/exclude, dependency folders listed but not entered), reading a file for the editor,
 * and saving the editor's text through the same file layer as the agent's tools (DESIGN §3):
 *   resolve inside the root → the file's lock (a save waits while an agent tool holds the file) → the disk must
 *   still hold the version the edits were made on (else `stale` with the disk's text: the editor shows both and
 *   the user chooses — nothing is overwritten either way) → encode in the file's own encoding, BOM and line
 *   ending kept → the journaled atomic work-tree write (temp, fsync, rename).
 */
import { join } from 'node:path';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { Attachment, FileContent, FileTree } from '../../shared/files-schemas';
import { withFileLock } from '../fs/file-lock';
import { blobId } from '../fs/journal';
import { writeProject } from '../fs/project-write';
import { encodeText, lineEnding, readTextFile, toLineEnding } from '../fs/text-file';
import type { TextFile } from '../fs/text-file';
import { resolveInRoot } from '../fs/workspace';
import { walk } from '../tools/walk';
import type { AgentService } from '../agent/service';
import type { Handlers } from './router';

/** At most this many files are listed in the tree (a bigger project says `truncated`). */
export const TREE_MAX_FILES = 20_000;

/** The project's files, ignore rules applied, sorted by path. */
export async function fileTree(root: string): Promise<FileTree> {
  const files: string[] = [];
  for await (const entry of walk(root, root)) {
    if (entry.kind !== 'file') continue;
    if (files.length >= TREE_MAX_FILES) return { files: files.sort(), truncated: true };
    files.push(entry.rel);
  }
  return { files: files.sort(), truncated: false };
}

function contentOf(rel: string, f: TextFile): FileContent {
  return {
    path: rel,
    text: f.text,
    version: blobId(f.bytes),
    encoding: f.encoding.encoding + (f.encoding.bom ? ' (BOM)' : ''),
    eol: lineEnding(f.text) === '\r\n' ? 'crlf' : 'lf',
  };
}

/**
 * A text file of the project for the editor. Errors: `outside_root`, `invalid_input`, `file_not_found`,
 * `is_directory`, `binary`, `too_large`, `io_error` (the file layer's).
 */
export async function readProjectFile(root: string, rel: string): Promise<Result<FileContent>> {
  const r = await resolveInRoot(root, rel);
  if (!r.ok) return r;
  const f = await readTextFile(r.value.real);
  return f.ok ? ok(contentOf(r.value.rel, f.value)) : f;
}

/**
 * Save the editor's `text` over `rel`, made on `baseVersion` (see the module docstring). Errors: those of
 * readProjectFile; `stale` (the disk holds another version — data `{ path, version, text }`, the disk's side);
 * `unencodable` (a character the file's encoding cannot hold); `io_error` (the write failed; the file is as it was).
 */
export async function saveProjectFile(
  root: string,
  rel: string,
  text: string,
  baseVersion: string,
  journalDir: string,
): Promise<Result<{ path: string; version: string }>> {
  const r = await resolveInRoot(root, rel);
  if (!r.ok) return r;
  const real = r.value.real;
  return withFileLock(real, async () => {
    const now = await readTextFile(real);
    if (!now.ok) return now;
    const disk = contentOf(r.value.rel, now.value);
    if (disk.version !== baseVersion)
      return fail(
        'stale',
        `${r.value.rel} changed on disk since it was opened in the editor; nothing was saved.`,
        'Compare your edits with the file as it is now, then keep yours or take the new text.',
        { path: r.value.rel, version: disk.version, text: disk.text },
      );
    // The file's own line ending, whatever the editor sent (Monaco normalises a file's mixed endings to one).
    const kept = toLineEnding(text, lineEnding(now.value.text));
    const bytes = encodeText(kept, now.value.encoding);
    if (!bytes.ok) return bytes;
    if (bytes.value.equals(now.value.bytes)) return ok({ path: r.value.rel, version: disk.version });
    const put = { kind: 'file' as const, bytes: bytes.value, perm: now.value.mode };
    const wrote = await writeProject(root, [{ rel: r.value.rel, put }], { journalDir, label: 'editor' });
    if (!wrote.ok) return wrote;
    return ok({ path: r.value.rel, version: blobId(bytes.value) });
  });
}

/** Largest attached text (characters, all attachments of one message together). */
export const ATTACH_MAX_CHARS = 200_000;

/**
 * The text of @-mentioned files for the message, one block per attachment:
 * `<attached-file path="src/a.ts" lines="10-20">` … `</attached-file>` (lines only for a range). Errors: those of
 * readProjectFile (a missing, binary or outside file stops the message: nothing is sent), `invalid_input` for a
 * range past the file's end or reversed, `too_large` past ATTACH_MAX_CHARS.
 */
export async function attachmentText(root: string, attachments: readonly Attachment[]): Promise<Result<string>> {
  const blocks: string[] = [];
  let total = 0;
  for (const a of attachments) {
    const f = await readProjectFile(root, a.path);
    if (!f.ok) return f;
    const lines = f.value.text.split(/\r?\n/);
    const from = a.from ?? 1;
    const to = a.to ?? (a.from !== undefined ? a.from : lines.length);
    if (to < from || from > lines.length)
      return fail(
        'invalid_input',
        `${f.value.path} has ${lines.length} lines; lines ${from}-${to} are not in it.`,
        'Mention a range inside the file, e.g. @src/a.ts:10-20.',
        { path: f.value.path, lines: lines.length },
      );
    const body = a.from === undefined ? f.value.text : lines.slice(from - 1, to).join('\n');
    total += body.length;
    if (total > ATTACH_MAX_CHARS)
      return fail(
        'too_large',
        `The attached files hold more than ${ATTACH_MAX_CHARS} characters.`,
        'Attach a line range (@path:10-80) instead of the whole file.',
      );
    const range = a.from === undefined ? '' : ` lines="${from}-${to}"`;
    blocks.push(`<attached-file path="${f.value.path}"${range}>\n${body}\n</attached-file>`);
  }
  return ok(blocks.join('\n\n'));
}

/**
 * The contract's `files.*` handlers over the core's projects, and `withAttachments` for `chat.prompt`: the
 * message followed by its @-mentioned files' text. Error `invalid_input` for an unknown project or session.
 */
export function fileHandlers(
  svc: AgentService,
  dataDir: string,
): {
  handlers: Pick<Handlers, 'files.tree' | 'files.read' | 'files.save'>;
  withAttachments(sessionId: string, text: string, attachments: readonly Attachment[]): Promise<Result<string>>;
} {
  const rootOf = (projectId: string): Result<string> => {
    const project = svc.listProjects().find((p) => p.id === projectId);
    return project
      ? ok(project.root)
      : fail('invalid_input', `There is no project ${projectId}.`, 'Open the project again from the project list.');
  };
  const journal = join(dataDir, 'journal');
  return {
    handlers: {
      'files.tree': async (i) => {
        const root = rootOf(i.projectId);
        return root.ok ? ok(await fileTree(root.value)) : root;
      },
      'files.read': async (i) => {
        const root = rootOf(i.projectId);
        return root.ok ? readProjectFile(root.value, i.path) : root;
      },
      'files.save': async (i) => {
        const root = rootOf(i.projectId);
        return root.ok ? saveProjectFile(root.value, i.path, i.text, i.baseVersion, journal) : root;
      },
    },
    async withAttachments(sessionId, text, attachments) {
      if (attachments.length === 0) return ok(text);
      const view = svc.getSession(sessionId);
      if (!view.ok) return view;
      const root = rootOf(view.value.session.projectId);
      if (!root.ok) return root;
      const attached = await attachmentText(root.value, attachments);
      return attached.ok ? ok(`${text}\n\n${attached.value}`) : attached;
    },
  };
}
