/**
 * The page's import guard: a file whose byte size alone proves it over the limit is refused without being read; a
 * file at the limit is read and passed on; one character over is refused with the count. Nothing is sent in the
 * refused cases (no call is made here at all).
 */
import { describe, expect, test } from 'vitest';
import { SESSION_IMPORT_MAX_CHARS } from '../../../shared/limits';
import { readImportFile } from './import-upload';

/** A file-like object that fails the test if it is read. */
function unreadable(size: number): Blob {
  return {
    size,
    text: () => Promise.reject(new Error('the file was read')),
  } as unknown as Blob;
}

describe('readImportFile', () => {
  test('more than 3 bytes per allowed character: refused unread', async () => {
    const r = await readImportFile(unreadable(3 * SESSION_IMPORT_MAX_CHARS + 1));
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'too_large',
        message: expect.stringMatching(
          /^This file is too large to import \(150\.0 MB\)\. Landfall imports session exports of up to 50,000,000 characters/,
        ),
        hint: 'Nothing was sent. Import a smaller export.',
      },
    });
  });

  test('characters, not bytes, decide: multi-byte text under the limit passes, one character over does not', async () => {
    const accents = 'é'.repeat(1000); // 2000 bytes, 1000 characters
    expect(await readImportFile(new Blob([accents]))).toEqual({ ok: true, value: accents });
    const over = { size: 10, text: async () => 'x'.repeat(SESSION_IMPORT_MAX_CHARS + 1) } as unknown as Blob;
    expect(await readImportFile(over)).toMatchObject({
      ok: false,
      error: { code: 'too_large', message: expect.stringContaining('(50,000,001 characters)') },
    });
  });
});
