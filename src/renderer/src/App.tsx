import type React from 'react';
/** Top-level layout; features live in src/renderer/src/features (filled in by issues #7 and #8). */
export function App(): React.JSX.Element {
  return <main className="app">Landfall</main>;
}
