/** Settings: provider (with presets), model, base URL, API key, and a connection test that says what went wrong. */
import { useEffect, useState } from 'react';
import type React from 'react';
import { PROVIDER_PRESETS } from '../../../../shared/contract';
import type { ProviderId, SettingsInput } from '../../../../shared/contract';
import { useStore } from '../../stores';
import { SettingsErrorCard } from './SettingsErrorCard';
import { TrustedFolders } from './TrustedFolders';
import { McpServers } from './McpServers';

const IDS = Object.keys(PROVIDER_PRESETS) as ProviderId[];

export function SettingsView(): React.JSX.Element {
  const settings = useStore((s) => s.settings);
  const save = useStore((s) => s.saveSettings);
  const test = useStore((s) => s.testConnection);
  const testing = useStore((s) => s.testing);
  const result = useStore((s) => s.testResult);
  const setScreen = useStore((s) => s.setScreen);
  const [provider, setProvider] = useState<ProviderId | null>(settings?.provider ?? null);
  const [model, setModel] = useState(settings?.model ?? '');
  const [baseURL, setBaseURL] = useState(settings?.baseURL ?? '');
  const [key, setKey] = useState('');
  useEffect(() => {
    if (!settings) return;
    setProvider(settings.provider);
    setModel(settings.model);
    setBaseURL(settings.baseURL);
  }, [settings]);
  const choose = (id: ProviderId): void => {
    setProvider(id);
    setBaseURL(PROVIDER_PRESETS[id].baseURL);
  };
  const input = (): SettingsInput => ({
    provider,
    model: model.trim(),
    baseURL: baseURL.trim(),
    ...(key ? { apiKey: key } : {}),
  });
  return (
    <section className="settings" data-testid="settings">
      <h2>Settings</h2>
      {settings?.loadError && <SettingsErrorCard error={settings.loadError} where="settings" />}
      {settings?.backup && (
        <p className="ok" data-testid="settings-backup" role="status">
          Settings were reset to the defaults. Your old file was kept as <code>{settings.backup}</code>.
        </p>
      )}
      <fieldset>
        <legend>Provider</legend>
        <div className="presets">
          {IDS.map((id) => (
            <label key={id} className={provider === id ? 'chosen' : ''}>
              <input type="radio" name="provider" checked={provider === id} onChange={() => choose(id)} />{' '}
              {PROVIDER_PRESETS[id].label}
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        Model
        <input
          data-testid="model"
          value={model}
          placeholder="e.g. qwen2.5-coder:14b"
          onChange={(e) => setModel(e.target.value)}
        />
      </label>
      <label>
        Base URL
        <input
          data-testid="base-url"
          value={baseURL}
          placeholder="default for this provider"
          onChange={(e) => setBaseURL(e.target.value)}
        />
      </label>
      <label>
        API key {settings?.hasKey && <span className="muted">(a key is stored; type to replace it)</span>}
        <input
          data-testid="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
      </label>
      {settings?.keyStorage === 'unprotected' && (
        <p className="warning" data-testid="key-warning">
          This system offers no secret store: a key typed here is kept in memory until Landfall quits, never written to
          disk. To keep one, set the variable the provider names (<code>apiKeyEnv</code> in settings.json, e.g.{' '}
          <code>OPENAI_API_KEY</code>) in the environment Landfall starts from.
        </p>
      )}
      {settings?.keyStorage === 'environment' && (
        <p className="muted">
          In the browser version a key typed here is kept in memory until the host stops, never written to disk.
          Otherwise each provider&apos;s key is read from the variable it names (<code>apiKeyEnv</code> in
          settings.json, e.g. <code>OPENAI_API_KEY</code>) in the environment <code>npm run serve</code> started from.
        </p>
      )}
      <div className="row-buttons">
        <button
          className="primary"
          data-testid="save-settings"
          disabled={!!settings?.loadError}
          title={settings?.loadError ? 'settings.json cannot be read: fix it, or reset to defaults first' : undefined}
          onClick={() => void save(input()).then((done) => done && setKey(''))}
        >
          Save
        </button>
        <button
          data-testid="test-connection"
          disabled={testing === 'running' || !provider}
          onClick={() => void test(input())}
        >
          {testing === 'running' ? 'Testing…' : 'Test connection'}
        </button>
        <button onClick={() => setScreen('chat')}>Back</button>
      </div>
      {result && (
        <p className={result.ok ? 'ok' : 'warning'} data-testid="test-result" role="status">
          {result.text}
        </p>
      )}
      <TrustedFolders />
      <McpServers />
    </section>
  );
}
