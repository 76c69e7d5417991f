/**
 * What the review shows instead of a text diff for a guarded file (fixtures/bugs/README.md B40): binary files say "binary file changed"
 * with sizes and content hashes; too-large and long-line files say why they are not opened. The whole-file hunk
 * keeps its Keep / Reject buttons, so decisions work on these files too.
 */
import type React from 'react';
import type { ReviewFile, ReviewHunk } from '../../../../shared/review-schemas';
import { revertedText, type HunkAction } from './hunk-zones';

function size(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} B`;
}

const WHY: Record<NonNullable<ReviewFile['guard']>, string> = {
  binary: 'Binary file changed',
  too_large: 'Large file — not opened in the diff view',
  long_lines: 'Very long lines (minified?) — not opened in the diff view',
};

export function GuardNotice({
  file,
  focusedId,
  onAction,
}: {
  file: ReviewFile;
  focusedId: string | null;
  onAction(h: ReviewHunk, a: HunkAction): void;
}): React.JSX.Element {
  const guard = file.guard ?? 'binary';
  return (
    <div className="review-guard" data-testid="review-guard" data-guard={guard}>
      <p className="review-guard-title">{WHY[guard]}</p>
      <p className="review-guard-detail">
        {file.status === 'added' ? 'new' : `${size(file.beforeSize)}${file.beforeHash ? ` (${file.beforeHash})` : ''}`}{' '}
        →{' '}
        {file.status === 'deleted'
          ? 'deleted'
          : `${size(file.afterSize)}${file.afterHash ? ` (${file.afterHash})` : ''}`}
        {guard !== 'binary' ? ` · −${file.deletions} +${file.additions}` : ''}
      </p>
      <ul className="review-guard-hunks">
        {file.hunks.map((h, i) => (
          <li
            key={h.id}
            className={`hunk-bar state-${h.state}${h.reverted ? ' reverted' : ''}${h.id === focusedId ? ' focused' : ''}`}
            data-testid="hunk-bar"
            data-hunk-id={h.id}
            data-state={h.state}
            data-reverted={h.reverted}
          >
            <span className="hunk-label">
              {h.kind === 'file' ? 'Whole file' : `Hunk ${i + 1}/${file.hunks.length} at line ${h.newStart}`}
            </span>
            {revertedText(h) ? (
              <>
                <span className="hunk-state hunk-reverted" data-testid="hunk-reverted" title={revertedText(h)?.title}>
                  {revertedText(h)?.label}
                </span>
                <span className="hunk-reverted-note">{revertedText(h)?.note}</span>
              </>
            ) : h.state === 'pending' ? (
              <>
                <button type="button" data-testid="hunk-keep" onClick={() => onAction(h, 'accept')}>
                  Keep
                </button>
                <button type="button" data-testid="hunk-reject" onClick={() => onAction(h, 'reject')}>
                  Reject
                </button>
              </>
            ) : (
              <>
                <span className="hunk-state">{h.state === 'accepted' ? 'Kept' : 'Rejected'}</span>
                <button type="button" data-testid="hunk-undo" onClick={() => onAction(h, 'undo')}>
                  Undo
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
