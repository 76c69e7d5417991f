/**
 * The Settings screen: providers (several, each with its models, windows, base URL and key), the compaction model,
 * permission rules, language servers, MCP servers and trusted folders — one form over settings.json, saved as a
 * whole (Save says "Saved", or shows main's issues next to the fields). When settings.json changes on disk while
 * the form holds edits, the form says so and offers the file's version instead of overwriting it (the stale rule).
 * The state and rules are the settings slice's (stores/settings-slice.ts, settings-form.ts).
 */
import type React from 'react';
import { useStore } from '../../stores';
import { isStale, saveBlockedWhy } from '../../stores/settings-form';
import { SettingsErrorCard } from './SettingsErrorCard';
import { TrustedFolders } from './TrustedFolders';
import { McpServers } from './McpServers';
import { Providers } from './Providers';
import { Rules } from './Rules';
import { LanguageServers } from './LanguageServers';
import { McpEntries } from './McpEntries';
import './settings.css';

function StaleNotice(): React.JSX.Element | null {
  const stale = useStore((s) => isStale(s.settings?.version, s.diskVersion, s.formStatus === 'saving'));
  const followed = useStore((s) => s.formFollowed);
  const reload = useStore((s) => s.loadSettings);
  if (followed)
    return (
      <p className="muted" role="status" data-testid="settings-followed">
        settings.json changed on disk; the form shows it now.
      </p>
    );
  if (!stale) return null;
  return (
    <div className="warning stale-notice" role="alert" data-testid="settings-stale">
      <span>
        settings.json was changed on disk (by hand or another window) since this form was loaded. Saving now would
        overwrite that change, so Save is off until you reload.
      </span>
      <button data-testid="settings-reload" onClick={() => void reload()}>
        Reload from disk (drops your edits here)
      </button>
    </div>
  );
}

function IssueList(): React.JSX.Element | null {
  const issues = useStore((s) => s.formIssues);
  const refused = useStore((s) => s.formStatus === 'refused');
  if (issues.length === 0 || !refused) return null;
  return (
    <div className="warning" role="alert" data-testid="settings-issues">
      Not saved — correct these fields:
      <ul>
        {issues.map((i) => (
          <li key={`${i.path}:${i.message}`}>
            <code>{i.path}</code>: {i.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function SaveBar(): React.JSX.Element {
  const status = useStore((s) => s.formStatus);
  const settings = useStore((s) => s.settings);
  const stale = useStore((s) => isStale(s.settings?.version, s.diskVersion, s.formStatus === 'saving'));
  const save = useStore((s) => s.saveForm);
  const setScreen = useStore((s) => s.setScreen);
  const reload = useStore((s) => s.loadSettings);
  const why = saveBlockedWhy(!!settings?.loadError, stale);
  return (
    <div className="save-bar">
      <button
        className="primary"
        data-testid="save-settings"
        disabled={why !== null || status === 'saving'}
        aria-describedby={why ? 'save-blocked-why' : undefined}
        onClick={() => void save()}
      >
        {status === 'saving' ? 'Saving…' : 'Save'}
      </button>
      <button onClick={() => setScreen('chat')}>Back</button>
      {why && (
        <span className="save-blocked" id="save-blocked-why" role="status" data-testid="save-blocked">
          {why}
          {stale && !settings?.loadError && (
            <button data-testid="settings-reload-bar" onClick={() => void reload()}>
              Reload from disk
            </button>
          )}
        </span>
      )}
      {status === 'saved' && (
        <span className="ok" role="status" data-testid="save-status">
          Saved
        </span>
      )}
      {status === 'refused' && (
        <span className="field-issue" role="status" data-testid="save-status">
          Not saved
        </span>
      )}
    </div>
  );
}

export function SettingsView(): React.JSX.Element {
  const settings = useStore((s) => s.settings);
  return (
    <section className="settings" data-testid="settings">
      <h2>Settings</h2>
      {settings?.loadError && <SettingsErrorCard error={settings.loadError} where="settings" />}
      {settings?.backup && (
        <p className="ok" data-testid="settings-backup" role="status">
          Settings were reset to the defaults. Your old file was kept as <code>{settings.backup}</code>.
        </p>
      )}
      <StaleNotice />
      <IssueList />
      <Providers />
      <Rules />
      <LanguageServers />
      <McpEntries />
      <McpServers />
      <TrustedFolders />
      <SaveBar />
    </section>
  );
}
