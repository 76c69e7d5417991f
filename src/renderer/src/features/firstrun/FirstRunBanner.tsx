/**
 * Shown while no provider is configured: says so plainly and offers the sample replay or the settings. When
 * settings.json exists but cannot be read, that is said instead (the provider state is then unknown).
 */
import type React from 'react';
import { useStore } from '../../stores';
import { SettingsErrorCard } from '../settings/SettingsErrorCard';

export function FirstRunBanner(): React.JSX.Element | null {
  const firstRun = useStore((s) => s.info?.firstRun ?? false);
  const settingsError = useStore((s) => s.info?.settingsError);
  const openSample = useStore((s) => s.openSample);
  const setScreen = useStore((s) => s.setScreen);
  if (settingsError) return <SettingsErrorCard error={settingsError} where="home" />;
  if (!firstRun) return null;
  return (
    <div className="first-run" data-testid="first-run">
      <h3>No model provider is set up yet</h3>
      <p>
        Landfall needs a language model to work on your code: a local one (Ollama, LM Studio) or an API key. Meanwhile,
        you can watch a recorded session replay on a small sample project — the agent reads, edits, asks your
        permission, and every step can be undone.
      </p>
      <div className="row-buttons">
        <button className="primary" data-testid="replay-sample" onClick={() => void openSample()}>
          Replay the sample session
        </button>
        <button onClick={() => setScreen('settings')}>Set up a provider</button>
      </div>
    </div>
  );
}
