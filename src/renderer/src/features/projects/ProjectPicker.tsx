/** The start screen: recent projects, open a folder (native dialog in the app, a typed path in a browser). */
import { useState } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import { FirstRunBanner } from '../firstrun/FirstRunBanner';

export function ProjectPicker(): React.JSX.Element {
  const projects = useStore((s) => s.projects);
  const native = useStore((s) => s.info?.nativeDialog ?? false);
  const openProject = useStore((s) => s.openProject);
  const pickFolder = useStore((s) => s.pickFolder);
  const [path, setPath] = useState('');
  return (
    <section className="picker" data-testid="project-picker">
      <h1>Landfall</h1>
      <p className="tagline">
        Edits land on exactly the right bytes, or not at all. Every step can be seen and undone.
      </p>
      <FirstRunBanner />
      <div className="open-folder">
        {native ? (
          <button className="primary" onClick={() => void pickFolder()}>
            Open folder…
          </button>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (path.trim()) void openProject(path.trim());
            }}
          >
            <input
              aria-label="Project folder"
              data-testid="project-path"
              placeholder="/path/to/project"
              value={path}
              onChange={(e) => setPath(e.target.value)}
            />
            <button className="primary" type="submit" data-testid="open-project">
              Open
            </button>
          </form>
        )}
      </div>
      <h2>Recent</h2>
      {projects.length === 0 ? (
        <p className="muted">No projects yet.</p>
      ) : (
        <ul className="recent">
          {[...projects]
            .sort((a, b) => b.lastOpened - a.lastOpened)
            .map((p) => (
              <li key={p.id}>
                <button onClick={() => void openProject(p.root)}>
                  <strong>{p.name}</strong> <span className="muted">{p.root}</span>
                </button>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}
