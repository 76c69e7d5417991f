/**
 * settings.json exists but cannot be used: says so plainly (file, line, what is wrong, the next step). On the home
 * screen it leads to Settings; on the Settings screen it offers "Check again" and "Reset to defaults" (which keeps
 * the old file as settings.json.bak-<time> — the only way the app overwrites an unreadable file).
 */
import type React from 'react';
import type { SettingsLoadError } from '../../../../shared/contract';
import { useStore } from '../../stores';

export function SettingsErrorCard({
  error,
  where,
}: {
  error: SettingsLoadError;
  where: 'home' | 'settings';
}): React.JSX.Element {
  const setScreen = useStore((s) => s.setScreen);
  const loadSettings = useStore((s) => s.loadSettings);
  const reset = useStore((s) => s.resetSettings);
  return (
    <div className="first-run settings-error" role="alert" data-testid="settings-load-error">
      <h3>Your settings file cannot be read</h3>
      <p>{error.message}</p>
      <p className="muted">
        <code>{error.file}</code>
      </p>
      <p>{error.hint}</p>
      <div className="row-buttons">
        {where === 'home' ? (
          <button className="primary" onClick={() => setScreen('settings')}>
            Open Settings
          </button>
        ) : (
          <button className="danger" data-testid="reset-settings" onClick={() => void reset()}>
            Reset to defaults (keep a backup)
          </button>
        )}
        <button data-testid="settings-check-again" onClick={() => void loadSettings()}>
          Check again
        </button>
      </div>
    </div>
  );
}
