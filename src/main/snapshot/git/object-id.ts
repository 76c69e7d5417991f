/**
 * Git object ids: sha1 over `<type> <size>\0<content>` (the loose-object header), computed with node:crypto.
 * Tree ids computed here equal native git's for the same entries because the bytes hashed are the same.
 */
import { createHash, hash } from 'node:crypto';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** The id of the empty tree (`git hash-object -t tree /dev/null`). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Hex sha1 of a git object of `type` with `content` (bytes). Pure; never throws. */
export function hashObject(type: ObjectType, content: Uint8Array): string {
  // One-shot hashing is several times cheaper per call than a Hash object; large contents avoid the copy.
  if (content.length < 1 << 20)
    return hash('sha1', Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), 'hex');
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** True for a 40-hex lowercase object id. */
export function isObjectId(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{40}$/.test(s);
}
