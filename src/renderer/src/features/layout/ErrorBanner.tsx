/** The last failure, in plain words: what happened and the next step (the error's hint). */
import type React from 'react';
import { useStore } from '../../stores';

export function ErrorBanner(): React.JSX.Element | null {
  const error = useStore((s) => s.error);
  const dismiss = useStore((s) => s.showError);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner" data-code={error.code}>
      <span>
        {error.message} <em>{error.hint}</em>
      </span>
      <button aria-label="Dismiss" onClick={() => dismiss(null)}>
        ×
      </button>
    </div>
  );
}
