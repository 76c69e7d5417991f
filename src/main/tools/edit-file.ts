/**
 * Changing an existing text file in place, shared by edit and multiedit (DESIGN §2–3). Inside the caller's file
 * lock: read and decode → observed-version check BEFORE any matching (`not_observed`; `stale` is passed to the
 * landing function, which decides what may still land) → land on the decoded text → encode back in the file's own
 * encoding (`unencodable`; `encoding_uncertain` when the detector was unsure and the edit adds text the file's
 * bytes cannot vouch for, fs/encoding-proof.ts) → byte-identical result is `no_change` → commitWrite (permission ask with preview,
 * disk re-check, atomic write, commit diff, diagnostics).
 */
import { fail, type Result } from '../../shared/errors';
import { checkFresh } from '../fs/observed';
import { proveEncoding } from '../fs/encoding-proof';
import { encodeText, readTextFile } from '../fs/text-file';
import type { ResolvedPath } from '../fs/workspace';
import { commitWrite } from './commit-write';
import { failed, withDiagnostics } from './file-access';
import type { ToolContext, ToolOutcome } from './types';

/** What a landing function answers: the new text, the line for the model, and metadata for the UI. */
export interface Landed {
  content: string;
  summary: string;
  metadata: Record<string, unknown>;
}

/**
 * Land `land(text, stale)` on the existing file `r` and write it. `tool` names the call in the permission ask.
 * The outcome's metadata holds `diff` (the commit FileChange), `encoding`, `diagnostics`, plus the landing's own.
 */
export async function editExistingFile(
  ctx: ToolContext,
  tool: string,
  r: ResolvedPath,
  land: (text: string, stale: boolean) => Result<Landed>,
): Promise<ToolOutcome> {
  const file = await readTextFile(r.real);
  if (!file.ok) return failed(file.error);
  const f = file.value;
  const fresh = await checkFresh(ctx, r, f.bytes);
  if (!fresh.ok && fresh.error.code !== 'stale') return failed(fresh.error);
  const landing = land(f.text, !fresh.ok);
  if (!landing.ok) return failed(landing.error);
  const afterText = landing.value.content;
  const bytes = encodeText(afterText, f.encoding);
  if (!bytes.ok) return failed(bytes.error);
  const vouched = proveEncoding(f.bytes, bytes.value, f.encoding, r.rel);
  if (!vouched.ok) return failed(vouched.error);
  if (bytes.value.equals(f.bytes)) {
    return failed(
      fail('no_change', `The edit would leave ${r.rel} byte-identical.`, 'Send an edit that changes the text.').error,
    );
  }
  const committed = await commitWrite(
    ctx,
    tool,
    r,
    { text: f.text, bytes: f.bytes, mode: f.mode },
    { text: afterText, bytes: bytes.value },
    false,
  );
  if (!committed.ok) return failed(committed.error);
  const { diff, diagnosticsText, diagnostics } = committed.value;
  return {
    ok: true,
    title: `${tool} ${r.rel}`,
    output: withDiagnostics(landing.value.summary, diagnosticsText),
    metadata: { diff, ...landing.value.metadata, encoding: f.encoding.encoding, diagnostics: diagnostics?.diagnostics },
  };
}
