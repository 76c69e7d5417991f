/** Pure helpers over parts, shared by the chat slice and its tests. */
import type { Part } from '../../../shared/contract';

/** Replaces the part with the same id, or appends it. Returns a new array; the input is not changed. */
export function upsertPart(parts: Part[], part: Part): Part[] {
  const i = parts.findIndex((p) => p.id === part.id);
  if (i < 0) return [...parts, part];
  const next = parts.slice();
  next[i] = part;
  return next;
}
