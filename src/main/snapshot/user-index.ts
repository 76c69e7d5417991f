/**
 * Read-only parser of the user's git index (`.git/index`, versions 2–4), used only for its path list: git
 * snapshots a file its index tracks even when an ignore rule matches it, and so does this store. The file is only
 * ever read (one readFileSync); nothing here can write it. Entry layout: 62 fixed bytes (stat data, mode, sha1,
 * flags), 2 more when the extended flag is set (v3+), then the path: NUL-terminated and padded to a multiple of 8
 * (v2/v3), or prefix-compressed (v4: varint count of bytes to drop from the previous path, then the suffix + NUL).
 */
import { readFileSync } from 'node:fs';

/** Paths the user's index tracks, plus every folder that contains one. */
export interface TrackedPaths {
  files: Set<string>;
  dirs: Set<string>;
}

/** Parses the index at `file`; an absent or unreadable index gives empty sets (nothing forced in). */
export function readUserIndex(file: string): TrackedPaths {
  const files = new Set<string>();
  const dirs = new Set<string>();
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return { files, dirs };
  }
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return { files, dirs };
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  let p = 12;
  let prev: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count && p + 62 <= buf.length; i++) {
    const start = p;
    const flags = buf.readUInt16BE(p + 60);
    p += 62;
    if (version >= 3 && flags & 0x4000) p += 2;
    let name: Buffer;
    if (version === 4) {
      let b = buf[p++] ?? 0;
      let drop = b & 0x7f;
      while (b & 0x80) {
        b = buf[p++] ?? 0;
        drop = ((drop + 1) << 7) | (b & 0x7f);
      }
      const nul = buf.indexOf(0, p);
      name = Buffer.concat([prev.subarray(0, prev.length - drop), buf.subarray(p, nul)]);
      p = nul + 1;
    } else {
      const nul = buf.indexOf(0, p);
      name = buf.subarray(p, nul);
      p = start + Math.ceil((nul - start + 1) / 8) * 8;
    }
    prev = name;
    const path = name.toString('utf8');
    files.add(path);
    for (let s = path.lastIndexOf('/'); s > 0; s = path.lastIndexOf('/', s - 1)) dirs.add(path.slice(0, s));
  }
  return { files, dirs };
}
