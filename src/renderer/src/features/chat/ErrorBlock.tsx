/** A turn's error in its transcript: plain words and the next step first, the provider's raw text behind "details". */
import type React from 'react';

export function ErrorBlock({
  error,
}: {
  error: { code: string; message: string; hint: string; raw?: string };
}): React.JSX.Element {
  return (
    <div className="turn-error" data-testid="turn-error" data-code={error.code} role="alert">
      <div className="turn-error-message">{error.message}</div>
      {error.hint && <div className="turn-error-hint">{error.hint}</div>}
      {error.raw && (
        <details className="turn-error-details">
          <summary>details</summary>
          <pre>{error.raw}</pre>
        </details>
      )}
    </div>
  );
}
