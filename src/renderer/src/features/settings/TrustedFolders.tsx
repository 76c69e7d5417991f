/**
 * Settings section: trusted folders. Says whether the open project is trusted (and what that means: its own
 * language servers and MCP servers run only then), offers to trust it, and lists every trusted folder with a
 * Revoke button, and a field to trust another folder by its path. The list and the change are main's (trust slice →
 * trust.list / trust.set; main checks the path).
 */
import { useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';

function isInside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}

export function TrustedFolders(): React.JSX.Element {
  const trust = useStore((s) => s.trust);
  const project = useStore((s) => s.project);
  const setTrust = useStore((s) => s.setTrust);
  const [path, setPath] = useState('');
  const folders = trust?.folders ?? [];
  const covering = project ? folders.find((f) => isInside(f.path, project.root)) : undefined;
  return (
    <fieldset data-testid="trusted-folders">
      <legend>Trusted folders</legend>
      {trust?.problem && (
        <p className="warning" role="status">
          {trust.problem}
        </p>
      )}
      {project && !covering && (
        <div className="trust-project" data-testid="trust-project">
          <p className="muted">
            <strong>{project.name}</strong> is not trusted. Landfall does not run the project&apos;s own executables
            (language servers in its node_modules/.bin, its own TypeScript, MCP servers its files declare); it uses its
            bundled language servers instead.
          </p>
          <button data-testid="trust-this-folder" onClick={() => void setTrust(project.root, true)}>
            Trust this folder
          </button>
        </div>
      )}
      {project && covering && (
        <p className="muted" data-testid="trust-project">
          <strong>{project.name}</strong> is trusted
          {covering.path === project.root ? '' : ` (through ${covering.path})`}: its own language servers may run.
        </p>
      )}
      {folders.length === 0 ? (
        <p className="muted">No folder is trusted.</p>
      ) : (
        <ul className="trust-list">
          {folders.map((f) => (
            <li key={f.path} data-testid="trusted-folder">
              <code>{f.path}</code>
              <span className="muted"> since {new Date(f.trustedAt).toLocaleDateString()}</span>
              <button onClick={() => void setTrust(f.path, false)}>Revoke</button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) void setTrust(path.trim(), true).then(() => setPath(''));
        }}
      >
        <input
          aria-label="Folder to trust"
          data-testid="trust-path"
          placeholder="/path/to/a/folder"
          value={path}
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" data-testid="trust-add" disabled={!path.trim()}>
          Trust folder
        </button>
      </form>
    </fieldset>
  );
}
