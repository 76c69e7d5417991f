/** Files changed at the selected point: A/M/D/R, path, −/+ counts, pending hunks, and a guard badge (fixtures/bugs/README.md B40). */
import type React from 'react';
import { decidable } from '../../../../shared/review-change';
import type { ReviewFile } from '../../../../shared/review-schemas';

const LETTER: Record<ReviewFile['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };

export function FileList({
  files,
  selected,
  onSelect,
}: {
  files: readonly ReviewFile[];
  selected: number;
  onSelect(i: number): void;
}): React.JSX.Element {
  if (files.length === 0)
    return (
      <div className="review-files empty" data-testid="review-files">
        No files changed.
      </div>
    );
  return (
    <ul className="review-files" data-testid="review-files" role="listbox" aria-label="Changed files">
      {files.map((f, i) => {
        const pending = f.hunks.filter(decidable).length;
        return (
          <li
            key={f.path}
            role="option"
            aria-selected={i === selected}
            className={`review-file status-${f.status}${i === selected ? ' selected' : ''}`}
            data-testid="review-file"
            data-path={f.path}
            onClick={() => onSelect(i)}
          >
            <span className="file-status">{LETTER[f.status]}</span>
            <span className="file-path" title={f.oldPath ? `${f.oldPath} → ${f.path}` : f.path}>
              {f.path}
            </span>
            {f.guard === 'binary' ? null : (
              <span className="file-counts">
                <span className="del">−{f.deletions}</span> <span className="add">+{f.additions}</span>
              </span>
            )}
            {f.guard ? <span className="file-guard">{f.guard.replace('_', ' ')}</span> : null}
            {pending > 0 ? (
              <span className="file-pending" title="Hunks not yet decided">
                {pending}
              </span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
