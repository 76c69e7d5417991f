/**
 * Reading a recorded session in the corpus format (fixtures/corpus/README.md): calls.jsonl (ordered calls),
 * files.jsonl (base files), final.diff (the recorded end state), and source.json (Landfall's own fields: `id`,
 * `prompt`, the turns' `replies` and the `ask` marks of a recording written for Landfall). Validated with zod; a bad line is a typed
 * `invalid_input` naming the file and line.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fail, LandfallFailure, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { writeProject } from '../../fs/project-write';
import { realRoot, resolveInRoot } from '../../fs/workspace';

export const corpusCallSchema = z
  .object({
    seq: z.number().int(),
    tool: z.string(),
    path: z.string().optional(),
    orig_outcome: z.string().optional(),
    old_string: z.string().optional(),
    new_string: z.string().optional(),
    replace_all: z.boolean().optional(),
    content: z.string().optional(),
    landed_in: z.string().optional(),
    outside_repo: z.boolean().optional(),
    response_index: z.number().optional(),
    command: z.string().optional(),
    insert_line: z.number().optional(),
  })
  .passthrough();

export type CorpusCall = z.infer<typeof corpusCallSchema>;

const fileSchema = z.object({
  path: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  content: z.string(),
  mode: z.string().optional(),
});
export type CorpusFile = z.infer<typeof fileSchema>;

export interface CorpusSession {
  /** The recording's name: source.json's `id`, else the folder's name. */
  id: string;
  /** The first turn's prompt as the recording names it (source.json `prompt`), when it does. */
  prompt?: string;
  /** What the model said in each turn, by turn (source.json `replies`; absent: the replay says which turn ended). */
  replies?: RecordedReply[];
  /** Where the recording asks the user (source.json `ask`): each mark asks once in an attended replay. */
  ask?: AskMark[];
  dir: string;
  calls: CorpusCall[];
  files: CorpusFile[];
  finalDiff: string;
}

async function readJsonl<T>(file: string, schema: z.ZodType<T>): Promise<Result<T[]>> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch {
    return fail(
      'file_not_found',
      `${file} does not exist.`,
      'Point at a corpus session folder (it holds calls.jsonl, files.jsonl, final.diff).',
    );
  }
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      return fail(
        'invalid_input',
        `${file}:${i + 1} is not JSON: ${(e as Error).message}`,
        'Fix or regenerate that line.',
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      return fail('invalid_input', `${file}:${i + 1}: ${parsed.error.message}`, 'Fix or regenerate that line.');
    out.push(parsed.data);
  }
  return ok(out);
}

/** A turn's recorded words: `before` its first call (with it, in one step), `after` its last (the closing text). */
const replySchema = z.object({ before: z.string().max(20_000).optional(), after: z.string().max(20_000).optional() });
export type RecordedReply = z.infer<typeof replySchema>;

/**
 * A place the recording asks the user: a request of `permission` naming exactly `pattern` (a root-relative path
 * for edits) is put to the user although the rules allow it — never where a rule denies it — with `why` shown.
 */
const askMarkSchema = z.object({
  permission: z.string().min(1).max(100),
  pattern: z.string().min(1).max(1000),
  why: z.string().min(1).max(1000),
});
export type AskMark = z.infer<typeof askMarkSchema>;

type Source = { id?: string; prompt?: string; replies?: RecordedReply[]; ask?: AskMark[] };

/**
 * The recording's source.json (optional file): its `id`, the first turn's `prompt`, the turns' `replies` and
 * the `ask` marks, each when it names them. A malformed `replies` or `ask` is `invalid_input` (the recording is
 * ours to fix); an unreadable file or other fields are simply absent.
 */
async function readSource(dir: string): Promise<Result<Source>> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await fsp.readFile(path.join(dir, 'source.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return ok({});
  }
  const replies = z.array(replySchema).max(1000).optional().safeParse(json.replies);
  const ask = z.array(askMarkSchema).max(100).optional().safeParse(json.ask);
  if (!replies.success || !ask.success)
    return fail(
      'invalid_input',
      `${path.join(dir, 'source.json')}: ${(replies.error ?? ask.error)?.message}`,
      'Fix its `replies` (a list of { before?, after? }) or `ask` (a list of { permission, pattern, why }).',
    );
  return ok({
    ...(typeof json.id === 'string' && json.id !== '' ? { id: json.id } : {}),
    ...(typeof json.prompt === 'string' ? { prompt: json.prompt } : {}),
    ...(replies.data ? { replies: replies.data } : {}),
    ...(ask.data ? { ask: ask.data } : {}),
  });
}

/** Load a corpus session folder (and its source.json, readSource). Errors: `file_not_found`, `invalid_input`. */
export async function loadCorpusSession(dir: string): Promise<Result<CorpusSession>> {
  const calls = await readJsonl(path.join(dir, 'calls.jsonl'), corpusCallSchema);
  if (!calls.ok) return calls;
  const files = await readJsonl(path.join(dir, 'files.jsonl'), fileSchema);
  if (!files.ok) return files;
  // final.diff is optional for a replay (a session recorded without one still replays)
  const finalDiff = await fsp.readFile(path.join(dir, 'final.diff'), 'utf8').catch(() => '');
  const sorted = [...calls.value].sort((a, b) => a.seq - b.seq);
  const read = await readSource(dir);
  if (!read.ok) return read;
  const source = read.value;
  return ok({
    id: source.id ?? path.basename(path.resolve(dir)),
    ...(source.prompt !== undefined ? { prompt: source.prompt } : {}),
    ...(source.replies ? { replies: source.replies } : {}),
    ...(source.ask ? { ask: source.ask } : {}),
    dir,
    calls: sorted,
    files: files.value,
    finalDiff,
  });
}

/** Bytes of a corpus file. */
export function fileBytes(f: CorpusFile): Buffer {
  return f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : Buffer.from(f.content, 'utf8');
}

/**
 * Where base file `rel` goes in the project at `rootReal`: its folder resolved inside the project with symlinks
 * followed (a folder that leads outside is `outside_root`), joined with its name — the last component is never
 * followed, so a link there is replaced by a seed, not written through. `entry` is absolute, `rel` root-relative.
 */
export async function seedEntry(rootReal: string, file: string): Promise<Result<{ entry: string; rel: string }>> {
  const dir = path.posix.dirname(file);
  const parent = await resolveInRoot(rootReal, dir === '.' ? '.' : dir);
  if (!parent.ok) return parent;
  const entry = path.join(parent.value.real, path.posix.basename(file));
  return ok({ entry, rel: path.relative(rootReal, entry).split(path.sep).join('/') });
}

/**
 * Write every base file into `root` (mode 100755 → executable) as one journaled work-tree transaction
 * (src/main/fs/transaction.ts): each folder resolved inside the project (seedEntry), all or nothing. Throws
 * LandfallFailure `outside_root` / `io_error` / `invalid_input`; nothing is written then.
 */
export async function seedProject(root: string, files: CorpusFile[], journalDir?: string): Promise<void> {
  const rootReal = await realRoot(root);
  const steps = [];
  for (const f of files) {
    const at = await seedEntry(rootReal, f.path);
    if (!at.ok) throw new LandfallFailure(at.error);
    const perm = f.mode === '100755' ? 0o755 : 0o644;
    steps.push({ rel: at.value.rel, put: { kind: 'file' as const, bytes: fileBytes(f), perm } });
  }
  const wrote = await writeProject(rootReal, steps, { journalDir, label: 'replay seed' });
  if (!wrote.ok) throw new LandfallFailure(wrote.error);
}
