/**
 * How sure a legacy-encoding guess is (text-file.ts decodeBytes asks; encoding-proof.ts acts on the answer).
 *
 * A guess is sure when the file has at least EVIDENCE_BYTES non-ASCII bytes, the detector (chardet) gives it at
 * least SURE_CONFIDENCE and it leads the next encoding that also reproduces the bytes by SURE_MARGIN points.
 * Measured with chardet 2 on files made with iconv-lite: a 23-byte Shift-JIS file reads as windows-1252 (56)
 * ahead of windows-1250 (37), Shift_JIS only 10; a 13-byte GBK file gets 10 for five encodings; at 60+ non-ASCII
 * bytes Shift-JIS, GBK, EUC-JP and Big5 reach 100; single-byte encodings stay between 40 and 60 even for long
 * text (windows-1251 49 ahead of 11; ISO-8859-1 46 ahead of ISO-8859-2 30). Unsure answers list every encoding
 * that reproduces the bytes — the detector's and the common multi-byte ones it may not have proposed.
 */

/** An encoding that reproduces a file's bytes, with the detector's confidence in it (0–100; 0: not proposed). */
export interface EncodingCandidate {
  encoding: string;
  confidence: number;
}

/** Fewer non-ASCII bytes than this cannot tell a multi-byte encoding from a single-byte one. */
export const EVIDENCE_BYTES = 32;
/** The detector's confidence (0–100) a sure guess needs. */
export const SURE_CONFIDENCE = 40;
/** How far a sure guess must lead the next encoding that reproduces the bytes. */
export const SURE_MARGIN = 20;
/** Multi-byte encodings always tried when a guess is unsure (they read short files the detector misses). */
const MULTI_BYTE_PROBES = ['shift_jis', 'gb18030', 'big5', 'euc-jp', 'euc-kr'];

/**
 * undefined when `chosen` (the first guess that reproduces `bytes`) is sure (module doc); else every encoding
 * that reproduces the bytes, chosen first: the detector's later guesses `rest`, then the multi-byte probes it
 * did not propose (confidence 0). `decodesExactly` is text-file.ts's round-trip check.
 */
export function uncertainty(
  bytes: Buffer,
  chosen: EncodingCandidate,
  rest: readonly EncodingCandidate[],
  decodesExactly: (bytes: Buffer, encoding: string) => boolean,
): { candidates: EncodingCandidate[] } | undefined {
  let evidence = 0;
  for (const b of bytes) if (b >= 0x80 && ++evidence >= EVIDENCE_BYTES) break;
  if (evidence >= EVIDENCE_BYTES && chosen.confidence >= SURE_CONFIDENCE) {
    const next = rest.find((c) => decodesExactly(bytes, c.encoding));
    if (chosen.confidence - (next?.confidence ?? 0) >= SURE_MARGIN) return undefined;
  }
  const candidates = [chosen, ...rest.filter((c) => decodesExactly(bytes, c.encoding))];
  for (const probe of MULTI_BYTE_PROBES) {
    if (candidates.some((c) => sameEncoding(c.encoding, probe))) continue;
    if (decodesExactly(bytes, probe)) candidates.push({ encoding: probe, confidence: 0 });
  }
  return { candidates };
}

/** True when two iconv-lite names denote one encoding (gbk and gb18030 read GBK bytes alike). */
function sameEncoding(a: string, b: string): boolean {
  const canon = (n: string): string => {
    const x = n.toLowerCase().replace(/[^a-z0-9]/g, '');
    return x === 'gbk' || x === 'gb2312' || x === 'cp936'
      ? 'gb18030'
      : x === 'sjis' || x === 'windows31j'
        ? 'shiftjis'
        : x;
  };
  return canon(a) === canon(b);
}
