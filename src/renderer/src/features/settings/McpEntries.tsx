/**
 * Settings: the user's own MCP servers (`mcp.servers`) added, edited and removed — a name (it prefixes the server's
 * tools), stdio (command line) or HTTP (URL), on or off. Environment variables and headers are kept as the file
 * holds them (edit those in settings.json: they may hold secrets this form never shows). What each server is doing
 * now is the section below (McpServers.tsx).
 */
import type React from 'react';
import type { McpEntryDoc, SettingsDoc } from '../../../../shared/settings-schemas';
import { useStore } from '../../stores';
import { freeId, renameKey } from '../../stores/settings-form';
import { Issues, WordsInput } from './fields';

type Servers = Record<string, McpEntryDoc>;

function withServers(doc: SettingsDoc, change: (servers: Servers) => Servers): SettingsDoc {
  return { ...doc, mcp: { ...doc.mcp, servers: change(doc.mcp?.servers ?? {}) } };
}

/** The entry turned into `type`: a stdio entry keeps its command, an HTTP one its URL; the rest is kept. */
function ofType(entry: McpEntryDoc, type: 'stdio' | 'http' | 'sse'): McpEntryDoc {
  const rest: McpEntryDoc = { ...entry };
  for (const k of ['command', 'args', 'url', 'type'] as const) delete rest[k];
  return type === 'stdio'
    ? { ...rest, command: entry.command ?? '', args: entry.args ?? [] }
    : { ...rest, type, url: entry.url ?? '' };
}

function EntryRow({ name, entry }: { name: string; entry: McpEntryDoc }): React.JSX.Element {
  const edit = useStore((s) => s.editForm);
  const change = (c: (s: Servers) => Servers): void => edit((d) => withServers(d, c));
  const set = (value: McpEntryDoc): void => change((s) => ({ ...s, [name]: value }));
  const type = entry.type ?? 'stdio';
  const at = `mcp.servers.${name}`;
  return (
    <li className="rule-row" data-testid="mcp-entry">
      <input
        aria-label="Server name"
        data-testid="mcp-name"
        value={name}
        onChange={(e) => change((s) => renameKey(s, name, e.target.value))}
      />
      <select
        aria-label="Transport"
        data-testid="mcp-type"
        value={type}
        onChange={(e) => set(ofType(entry, e.target.value as 'stdio' | 'http' | 'sse'))}
      >
        <option value="stdio">stdio</option>
        <option value="http">HTTP</option>
        <option value="sse">SSE</option>
      </select>
      {type === 'stdio' ? (
        <WordsInput
          aria-label="Command"
          data-testid="mcp-command"
          className="wide"
          placeholder="command and arguments, e.g. npx -y @modelcontextprotocol/server-github"
          commas={false}
          value={[entry.command ?? '', ...(entry.args ?? [])].filter((w) => w !== '')}
          onChange={([command = '', ...args]) => set({ ...entry, command, args })}
        />
      ) : (
        <input
          aria-label="URL"
          data-testid="mcp-url"
          className="wide"
          placeholder="https://host/mcp"
          value={entry.url ?? ''}
          onChange={(e) => set({ ...entry, url: e.target.value })}
        />
      )}
      <label className="switch">
        <input
          type="checkbox"
          data-testid="mcp-enabled"
          checked={entry.enabled !== false}
          onChange={(e) => set({ ...entry, enabled: e.target.checked })}
        />
        on
      </label>
      <button
        aria-label="Remove server"
        data-testid="remove-mcp"
        onClick={() => change((s) => Object.fromEntries(Object.entries(s).filter(([k]) => k !== name)))}
      >
        Remove
      </button>
      <Issues path={at} />
    </li>
  );
}

export function McpEntries(): React.JSX.Element | null {
  const servers = useStore((s) => s.form?.mcp?.servers);
  const hasForm = useStore((s) => s.form !== null);
  const edit = useStore((s) => s.editForm);
  if (!hasForm) return null;
  const entries = Object.entries(servers ?? {});
  return (
    <fieldset data-testid="mcp-entries">
      <legend>Your MCP servers</legend>
      {entries.length === 0 ? (
        <p className="muted">None. Servers added here are available in every project.</p>
      ) : (
        <ul className="rule-list">
          {entries.map(([name, entry], i) => (
            <EntryRow key={i} name={name} entry={entry} />
          ))}
        </ul>
      )}
      <p className="muted">Environment variables and headers of a server are edited in settings.json.</p>
      <div className="row-buttons">
        <button
          data-testid="add-mcp"
          onClick={() =>
            edit((d) =>
              withServers(d, (s) => ({ ...s, [freeId('server', Object.keys(s))]: { command: '', args: [] } })),
            )
          }
        >
          Add MCP server
        </button>
      </div>
    </fieldset>
  );
}
