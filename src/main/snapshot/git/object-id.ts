/**
 * Git object ids: sha1 over `<type> <size>\0<content>` (the loose-object header), computed with node:crypto.
 * Tree ids computed here equal native git's for the same entries because the bytes hashed are the same.
 */
import { createHash, hash } from 'node:crypto';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** The id of the empty tree (`git hash-object -t tree /dev/null`). */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Contents below this size are hashed in one shot from `scratch` (larger ones through a Hash object). */
const ONE_SHOT_BYTES = 1 << 20;
/**
 * Where header and content are put together for one-shot hashing, reused by every call of this thread (calls are
 * synchronous). A fresh buffer per call was a second copy of every file a first track reads — 100,000
 * allocations left for the garbage collector, which malloc kept as resident memory long after.
 */
let scratch: Buffer | undefined;

/** Hex sha1 of a git object of `type` with `content` (bytes). Pure; never throws. */
export function hashObject(type: ObjectType, content: Uint8Array): string {
  // One-shot hashing is several times cheaper per call than a Hash object; large contents avoid the copy.
  if (content.length < ONE_SHOT_BYTES) {
    scratch ??= Buffer.allocUnsafe(ONE_SHOT_BYTES + 32);
    const head = scratch.write(`${type} ${content.length}\0`, 'latin1');
    scratch.set(content, head);
    return hash('sha1', scratch.subarray(0, head + content.length), 'hex');
  }
  return createHash('sha1').update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** True for a 40-hex lowercase object id. */
export function isObjectId(s: unknown): s is string {
  return typeof s === 'string' && /^[0-9a-f]{40}$/.test(s);
}
