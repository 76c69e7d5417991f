/**
 * What the permission prompt says an "always" answer will allow (the core decides; this only words it): the exact
 * commands or paths of the offer, or — when the user edited the bash field — "commands starting with …".
 */
import type { PermissionAsk } from '../../../../shared/contract';

type Offer = NonNullable<PermissionAsk['always']>;

/** The field's words with runs of blanks made one space, as the core compares them. */
export function normalisePattern(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The sentence under the "always" field: exact, or a pattern over the first words. */
export function willAllow(offer: Offer, field: string): string {
  const words = normalisePattern(field).replace(/\s*\*+$/, '');
  if (field.trim() === '' || offer.exact.includes(normalisePattern(field)))
    return `Will allow for this session: exactly ${offer.exact.map((e) => `“${e}”`).join(', ')}`;
  return `Will allow for this session: any command starting with “${words}” (checked word by word; lines with $(…), redirections to files and the like are still asked)`;
}

/** The pattern to send with `always`: undefined when the field still holds the exact offer (an exact grant). */
export function patternToSend(offer: Offer, field: string): string | undefined {
  const p = normalisePattern(field);
  return p === '' || offer.exact.includes(p) ? undefined : p;
}
