/**
 * Importing a session export from a file: refused before anything is sent when it is over the contract's limit
 * (src/shared/limits.ts SESSION_IMPORT_MAX_CHARS), else uploaded in parts that each fit one WebSocket frame
 * (`sessions.importBegin` / `importPart` / `importEnd`) — the same calls over Electron IPC, so one path serves both.
 */
import type { CallResult } from '../../../shared/contract';
import { fail } from '../../../shared/errors';
import type { LandfallError } from '../../../shared/errors';
import { IMPORT_PART_MAX_CHARS, SESSION_IMPORT_MAX_CHARS } from '../../../shared/limits';
import { call } from '../rpc';

/** Progress of an import: characters sent of the whole. */
export interface ImportProgress {
  sent: number;
  total: number;
}

function tooLarge(size: string): { ok: false; error: LandfallError } {
  return fail(
    'too_large',
    `This file is too large to import (${size}). Landfall imports session exports of up to ${SESSION_IMPORT_MAX_CHARS.toLocaleString('en-US')} characters (about ${Math.round(SESSION_IMPORT_MAX_CHARS / 1e6)} MB).`,
    'Nothing was sent. Import a smaller export.',
    { limit: SESSION_IMPORT_MAX_CHARS },
  );
}

/**
 * The file's text, or `too_large` without reading it when its size already proves it too long (a UTF-16 code unit
 * takes at most 3 bytes of UTF-8, so more than 3 × the limit in bytes is more than the limit in characters).
 */
export async function readImportFile(
  file: Blob,
): Promise<{ ok: true; value: string } | { ok: false; error: LandfallError }> {
  const mb = (file.size / 1e6).toFixed(1);
  if (file.size > 3 * SESSION_IMPORT_MAX_CHARS) return tooLarge(`${mb} MB`);
  const text = await file.text();
  if (text.length > SESSION_IMPORT_MAX_CHARS) return tooLarge(`${text.length.toLocaleString('en-US')} characters`);
  return { ok: true, value: text };
}

/** Uploads `text` into `projectId` in parts; `onProgress` hears each part landed. Answers the imported session. */
export async function uploadImport(
  projectId: string,
  text: string,
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<CallResult<'sessions.importEnd'>> {
  const begun = await call('sessions.importBegin', { projectId, length: text.length });
  if (!begun.ok) return begun;
  const { uploadId } = begun.value;
  for (let offset = 0; offset < text.length; offset += IMPORT_PART_MAX_CHARS) {
    const part = await call('sessions.importPart', {
      uploadId,
      offset,
      text: text.slice(offset, offset + IMPORT_PART_MAX_CHARS),
    });
    if (!part.ok) return part;
    onProgress({ sent: part.value.received, total: text.length });
  }
  return call('sessions.importEnd', { uploadId });
}
