/**
 * The write tool (DESIGN §3): create a file, or overwrite one the session has observed.
 * Inside the file's lock: resolve (outside_root) → existing file: decode, observed check (`not_observed`,
 * `stale` — a whole-file write never lands on a view the session did not have, fixtures/bugs/README.md B28), keep its encoding, BOM and
 * dominant line ending (fixtures/bugs/README.md B16, B18), refuse placeholder elisions that would wipe code (fixtures/bugs/README.md B22) and, in a file whose
 * encoding the detector was unsure of, text its bytes cannot vouch for (`encoding_uncertain`,
 * fs/encoding-proof.ts) → new file: UTF-8, LF,
 * no invented CR (fixtures/bugs/README.md B17) → permission ask with the preview → atomic write → commit diff → diagnostics (other files
 * with errors reported too).
 */
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { withFileLock } from '../fs/file-lock';
import { checkFresh } from '../fs/observed';
import { proveEncoding } from '../fs/encoding-proof';
import { encodeText, lineEnding, readTextFile, stripBomChar, toLineEnding } from '../fs/text-file';
import type { ResolvedPath } from '../fs/workspace';
import { commitWrite, type Before } from './commit-write';
import { detectElision } from './elision';
import { failed, resolveToolPath, withDiagnostics } from './file-access';
import { newFileContent } from './new-file';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolProse } from './prose';

const writeInput = z.object({
  filePath: z.string().min(1).describe('File to create or overwrite, relative to the project root.'),
  content: z.string().describe('The complete new content of the file (never placeholders for unchanged parts).'),
});
export type WriteInput = z.infer<typeof writeInput>;

type Planned = { before: Before; after: { text: string; bytes: Buffer } };

async function planOverwrite(input: WriteInput, ctx: ToolContext, r: ResolvedPath): Promise<ToolOutcome | Planned> {
  const file = await readTextFile(r.real);
  if (!file.ok) return failed(file.error);
  const f = file.value;
  const fresh = await checkFresh(ctx, r, f.bytes);
  if (!fresh.ok) return failed(fresh.error);
  const text = toLineEnding(stripBomChar(input.content), lineEnding(f.text));
  const elided = detectElision(f.text, text);
  if (elided) {
    return failed(
      fail(
        'elided',
        `The content stands for left-out code with a placeholder (${JSON.stringify(elided.placeholders[0]?.trim())}) and would shrink ${r.rel} from ${elided.oldLines} to ${elided.newLines} lines; nothing was written.`,
        'Use edit to change only the parts you mean, or send the complete file content with nothing left out.',
        { path: r.rel, ...elided },
      ).error,
    );
  }
  const bytes = encodeText(text, f.encoding);
  if (!bytes.ok) return failed(bytes.error);
  const vouched = proveEncoding(f.bytes, bytes.value, f.encoding, r.rel);
  if (!vouched.ok) return failed(vouched.error);
  return { before: { text: f.text, bytes: f.bytes, mode: f.mode }, after: { text, bytes: bytes.value } };
}

/** Create or overwrite one file; see the module docstring. */
async function executeWrite(input: WriteInput, ctx: ToolContext): Promise<ToolOutcome> {
  const resolved = await resolveToolPath(ctx, input.filePath);
  if (!resolved.ok) return failed(resolved.error);
  const r = resolved.value;
  return withFileLock(r.real, async () => {
    let plan: ToolOutcome | Planned;
    if (r.exists) plan = await planOverwrite(input, ctx, r);
    else {
      const created = newFileContent(input.content);
      plan = created.ok ? { before: { text: '', bytes: null }, after: created.value } : failed(created.error);
    }
    if ('ok' in plan) return plan;
    const committed = await commitWrite(ctx, 'write', r, plan.before, plan.after, true);
    if (!committed.ok) return failed(committed.error);
    const { diff, diagnosticsText, diagnostics } = committed.value;
    const verb = plan.before.bytes === null ? 'Created' : 'Wrote';
    const output = withDiagnostics(`${verb} ${r.rel} (+${diff.additions} -${diff.deletions} lines).`, diagnosticsText);
    return {
      ok: true,
      title: `write ${r.rel}`,
      output,
      metadata: { diff, created: plan.before.bytes === null, diagnostics: diagnostics?.diagnostics },
    };
  });
}

export const writeTool: ToolDefinition<WriteInput> = {
  name: 'write',
  description: toolProse(new URL('./write.md', import.meta.url)),
  input: writeInput,
  execute: executeWrite,
};
