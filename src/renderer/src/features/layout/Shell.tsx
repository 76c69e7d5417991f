/**
 * The window's layout: a top bar, the sessions sidebar, the main screen, and an optional right-hand `review`
 * panel slot (the review timeline and diff view mount there), plus the error banner and the palette on top.
 */
import type React from 'react';
import { useStore } from '../../stores';
import { SessionList } from '../sessions/SessionList';
import { CommandPalette } from '../palette/CommandPalette';
import { ErrorBanner } from './ErrorBanner';

export function Shell({ main, review }: { main: React.ReactNode; review?: React.ReactNode }): React.JSX.Element {
  const project = useStore((s) => s.project);
  const setScreen = useStore((s) => s.setScreen);
  const setPalette = useStore((s) => s.setPalette);
  return (
    <div className={`shell${review ? ' with-review' : ''}${project ? '' : ' no-project'}`}>
      <header className="topbar">
        <button className="brand" onClick={() => setScreen('projects')} title="Projects">
          Landfall
        </button>
        {project && (
          <span className="project-name" title={project.root}>
            {project.name}
          </span>
        )}
        <span className="spacer" />
        <button onClick={() => setPalette(true)} title="Command palette (Ctrl/Cmd+Shift+P)">
          Commands
        </button>
        <button data-testid="open-settings" onClick={() => setScreen('settings')}>
          Settings
        </button>
      </header>
      {project && <aside className="sidebar">{<SessionList />}</aside>}
      <main className="main">
        <ErrorBanner />
        {main}
      </main>
      {review && <aside className="review">{review}</aside>}
      <CommandPalette />
    </div>
  );
}
