/**
 * Settings section: the open project's MCP servers — state (connected / failed with the reason / turned off /
 * not trusted), each server's tools with a switch, and the tokens their definitions cost in every request. The
 * project's own MCP file is shown with an Approve button once its folder is trusted. Data and changes are main's
 * (mcp slice → mcp.status / mcp.approve / mcp.toggle); loaded when the section is shown.
 */
import { useEffect } from 'react';
import type React from 'react';
import type { McpServerStatusView } from '../../../../shared/reach-schemas';
import { useStore } from '../../stores';

const STATE: Record<McpServerStatusView['state'], string> = {
  connecting: 'starting',
  connected: 'connected',
  failed: 'failed',
  disabled: 'turned off',
  untrusted: 'not trusted',
};

function Server({ s }: { s: McpServerStatusView }): React.JSX.Element {
  const toggle = useStore((st) => st.toggleMcp);
  const own = s.origin === 'settings';
  return (
    <li className="mcp-server" data-testid="mcp-server" data-state={s.state}>
      <div className="mcp-head">
        <strong>{s.name}</strong>
        <span className={`mcp-state ${s.state}`}>{STATE[s.state]}</span>
        <span className="muted">{s.origin === 'project' ? 'from the project' : 'from your settings'}</span>
        {s.state === 'connected' && <span className="muted">{s.tokens} tokens per request</span>}
        {own && (
          <label className="mcp-switch">
            <input
              type="checkbox"
              checked={s.state !== 'disabled'}
              onChange={(e) => void toggle(s.name, e.target.checked)}
            />{' '}
            on
          </label>
        )}
      </div>
      {s.reason && <div className="muted mcp-reason">{s.reason}</div>}
      {s.tools.length > 0 && (
        <ul className="mcp-tools">
          {s.tools.map((t) => (
            <li key={t.name}>
              <label>
                <input
                  type="checkbox"
                  disabled={!own}
                  checked={t.enabled}
                  onChange={(e) => void toggle(s.name, e.target.checked, t.name.slice(s.name.length + 1))}
                />{' '}
                <code>{t.name}</code> <span className="muted">{t.tokens} tokens</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function McpServers(): React.JSX.Element | null {
  const project = useStore((s) => s.project);
  const mcp = useStore((s) => s.mcp);
  const load = useStore((s) => s.loadMcp);
  const approve = useStore((s) => s.approveMcp);
  useEffect(() => void load(), [load, project?.id]);
  if (!project) return null;
  const file = mcp?.projectFile;
  return (
    <fieldset data-testid="mcp-servers">
      <legend>MCP servers in this project</legend>
      {file && !file.approved && (
        <div className="trust-project" data-testid="mcp-project-file">
          <p className="muted">
            This project declares MCP servers in <code>{file.path}</code>. They are programs the project names, so they
            run only once{' '}
            {file.folderTrusted ? 'you approve this file' : 'you trust the folder (above) and approve this file'}. An
            edited file is asked again.
          </p>
          {file.folderTrusted && (
            <button data-testid="mcp-approve" onClick={() => void approve()}>
              Approve this file
            </button>
          )}
        </div>
      )}
      {file?.problem && <p className="warning">{file.problem}</p>}
      {!mcp || mcp.servers.length === 0 ? (
        <p className="muted">
          No MCP servers. Add yours above (Your MCP servers), or put them in the project&apos;s <code>.mcp.json</code>.
        </p>
      ) : (
        <ul className="mcp-list">
          {mcp.servers.map((s) => (
            <Server key={`${s.origin}:${s.name}`} s={s} />
          ))}
        </ul>
      )}
    </fieldset>
  );
}
