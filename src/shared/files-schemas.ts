/**
 * The file view's calls (the file tree, the editor tab): shapes shared by main and the renderer. A file's
 * `version` is the blob id of its bytes (the hash git would give them), so "did it change since I read it" is a
 * comparison of two strings, and a save names the version it was based on.
 */
import { z } from 'zod';
import { FILE_SAVE_MAX_CHARS } from './limits';

const id = z.string().min(1).max(200);
const relPath = z.string().min(1).max(4096);

export const FileTreeInputSchema = z.object({ projectId: id });
/** Files of the project (root-relative, '/' separators, ignore rules applied), sorted; `truncated` past the cap. */
export const FileTreeSchema = z.object({ files: z.array(z.string()), truncated: z.boolean() });

export const FileReadInputSchema = z.object({ projectId: id, path: relPath });
/** A text file as the editor shows it: the decoded text (no BOM), its version, encoding and line ending. */
export const FileContentSchema = z.object({
  path: z.string(),
  text: z.string(),
  version: z.string(),
  encoding: z.string(),
  eol: z.enum(['lf', 'crlf']),
});

export const FileSaveInputSchema = z.object({
  projectId: id,
  path: relPath,
  text: z.string().max(FILE_SAVE_MAX_CHARS),
  /** The version the edits were made on; the save is refused (`stale`) when the disk holds another. */
  baseVersion: z.string().min(1).max(100),
});
export const FileSavedSchema = z.object({ path: z.string(), version: z.string() });

export type FileTree = z.infer<typeof FileTreeSchema>;
export type FileContent = z.infer<typeof FileContentSchema>;

/** A file (or lines `from`–`to` of it, 1-based, inclusive) attached to a message with an @-mention. */
export const AttachmentSchema = z.object({
  path: relPath,
  from: z.number().int().min(1).optional(),
  to: z.number().int().min(1).optional(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;
