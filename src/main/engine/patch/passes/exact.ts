/**
 * Pass 1, exact: a line of the patch matches a line of the file when the two are the same string (the line's text
 * without its terminator, so a CRLF file matches a patch written with LF). Tried first, so a byte-exact place
 * always wins over one a looser pass would find.
 */
import type { Pass } from '../types';

export const exact: Pass = { name: 'exact', key: (line) => line };
