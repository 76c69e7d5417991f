/**
 * How text the model sends becomes a NEW file's bytes (fixtures/bugs/README.md B17, B18): UTF-8; line breaks become LF on every
 * platform (no invented CR — a repo that wants CRLF says so in its own tooling); a leading U+FEFF asks for a
 * UTF-8 BOM and is written once, as the BOM, never as text. Content is otherwise written verbatim (no final
 * newline is added).
 */
import type { Result } from '../../shared/errors';
import { encodeText, stripBomChar, toLineEnding, type TextEncodingInfo } from '../fs/text-file';

/** Text and bytes of a new file holding `content`. Error: `unencodable` (lone surrogates). */
export function newFileContent(content: string): Result<{ text: string; bytes: Buffer; encoding: TextEncodingInfo }> {
  const bom = content.charCodeAt(0) === 0xfeff;
  const text = toLineEnding(stripBomChar(content), '\n');
  const encoding = { encoding: 'utf8', bom };
  const bytes = encodeText(text, encoding);
  if (!bytes.ok) return bytes;
  return { ok: true, value: { text, bytes: bytes.value, encoding } };
}
