/**
 * applyEdits(): several edits of one file as one batch, every edit resolved against the ORIGINAL text (fixtures/bugs/README.md B12:
 * a later edit must never match text an earlier edit inserted). Each edit goes through the same decision loop as
 * replace(); their spans must not overlap (else `conflict`); then all pieces are spliced into the raw text in one
 * pass. All or nothing: one failing edit fails the batch, with `data.edit` naming it (0-based).
 */
import type { Result } from '../../../shared/errors';
import { ok } from '../../../shared/errors';
import { normalizeFile } from './line-endings';
import type { Piece, ReplaceSuccess } from './landing';
import { landingOf, piecesOf, render } from './landing';
import { planEdit } from './replace';
import { TextIndex } from './text';
import { noChange, overlap } from './failures';

/** One edit of a batch. */
export interface EditSpec {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** A landed batch: the new content and, per edit, where it landed (offsets into the ORIGINAL content). */
export interface ApplyEditsSuccess {
  content: string;
  edits: Omit<ReplaceSuccess, 'content'>[];
}

/**
 * Apply `edits` to `content` as one batch (see module doc).
 * @returns ok({ content, edits }) or the first failing edit's error (data.edit = its index), or `conflict` when
 *   two edits overlap in the original text, or `no_change` when the batch leaves the file byte-identical.
 */
export function applyEdits(content: string, edits: readonly EditSpec[]): Result<ApplyEditsSuccess> {
  const file = normalizeFile(content);
  const text = new TextIndex(file.text);
  const planned: { index: number; piece: Piece }[] = [];
  const plans = [];
  for (const [index, edit] of edits.entries()) {
    const plan = planEdit(text, edit.oldString, edit.newString, { replaceAll: edit.replaceAll === true });
    if (!plan.ok) return { ok: false, error: { ...plan.error, data: { ...(plan.error.data ?? {}), edit: index } } };
    plans.push(plan.value);
    for (const piece of piecesOf(plan.value)) planned.push({ index, piece });
  }
  planned.sort((a, b) => a.piece.start - b.piece.start || a.piece.end - b.piece.end);
  for (let k = 1; k < planned.length; k++) {
    const prev = planned[k - 1];
    const cur = planned[k];
    if (
      prev &&
      cur &&
      (cur.piece.start < prev.piece.end || (cur.piece.start === prev.piece.start && prev.index !== cur.index))
    ) {
      return overlap(Math.min(prev.index, cur.index), Math.max(prev.index, cur.index));
    }
  }
  const rendered = render(
    content,
    file,
    planned.map((p) => p.piece),
  );
  if (!rendered.changed) return noChange(false);
  const spansOf = plans.map(() => ({ starts: [] as number[], ends: [] as number[] }));
  planned.forEach((p, k) => {
    spansOf[p.index]?.starts.push(rendered.starts[k] ?? 0);
    spansOf[p.index]?.ends.push(rendered.ends[k] ?? 0);
  });
  const landed = plans.map((plan, index) => {
    const { starts, ends } = spansOf[index] ?? { starts: [], ends: [] };
    return landingOf(plan, '', content, starts, ends).plain();
  });
  return ok({ content: rendered.content, edits: landed });
}
