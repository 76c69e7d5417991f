/**
 * The window's layout: a top bar, then the sessions pane, the main screen and an optional right-hand `review`
 * pane (the review timeline and diff view mount there), plus the error banner and the palette on top. How they
 * are arranged follows the window's width (stores/layout.ts): side by side with draggable dividers, or as tabs.
 */
import { useEffect } from 'react';
import type React from 'react';
import { useStore } from '../../stores';
import type { PaneTab } from '../../stores/layout';
import { SessionList } from '../sessions/SessionList';
import { CommandPalette } from '../palette/CommandPalette';
import { ErrorBanner } from './ErrorBanner';
import { withKeys } from '../../stores/key-labels';
import { Divider } from './Divider';
import './layout.css';

function Tabs({ tabs }: { tabs: { id: PaneTab; label: string }[] }): React.JSX.Element {
  const tab = useStore((s) => s.tab);
  const setTab = useStore((s) => s.setTab);
  return (
    <nav className="pane-tabs" role="tablist" aria-label="Panes">
      {tabs.map((t) => (
        <button
          key={t.id}
          role="tab"
          aria-selected={tab === t.id}
          className={tab === t.id ? 'active' : ''}
          data-testid={`tab-${t.id}`}
          onClick={() => setTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </nav>
  );
}

export function Shell({ main, review }: { main: React.ReactNode; review?: React.ReactNode }): React.JSX.Element {
  const project = useStore((s) => s.project);
  const setScreen = useStore((s) => s.setScreen);
  const setPalette = useStore((s) => s.setPalette);
  const layout = useStore((s) => s.layout);
  const sizes = useStore((s) => s.paneSizes);
  const tab = useStore((s) => s.tab);
  const setWindowWidth = useStore((s) => s.setWindowWidth);
  useEffect(() => {
    const onResize = (): void => setWindowWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    onResize();
    return () => window.removeEventListener('resize', onResize);
  }, [setWindowWidth]);
  const tabs: { id: PaneTab; label: string }[] = [
    ...(layout === 'phone' && project ? [{ id: 'sessions' as const, label: 'Sessions' }] : []),
    { id: 'chat', label: 'Chat' },
    ...(review ? [{ id: 'review' as const, label: 'Review & files' }] : []),
  ];
  const shown: PaneTab = tabs.some((t) => t.id === tab) ? tab : 'chat';
  const tabbed = layout !== 'wide' && tabs.length > 1;
  const style =
    layout === 'wide' && project
      ? {
          gridTemplateColumns: review
            ? `${sizes.sidebar}px auto minmax(0, 1fr) auto ${sizes.review}px`
            : `${sizes.sidebar}px auto minmax(0, 1fr)`,
        }
      : undefined;
  const show = (id: PaneTab): boolean => !tabbed || shown === id;
  return (
    <div
      className={`shell layout-${layout}${review ? ' with-review' : ''}${project ? '' : ' no-project'}${tabbed ? ' tabbed' : ''}`}
      style={style}
      data-layout={layout}
    >
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
        <button onClick={() => setPalette(true)} title={withKeys('Command palette', 'view.palette')}>
          Commands
        </button>
        <button data-testid="open-settings" onClick={() => setScreen('settings')}>
          Settings
        </button>
      </header>
      {tabbed && <Tabs tabs={tabs} />}
      {project && (
        <aside className="sidebar" data-testid="sessions-pane" hidden={layout === 'phone' && !show('sessions')}>
          <SessionList />
        </aside>
      )}
      {project && layout === 'wide' && <Divider pane="sidebar" grow={1} />}
      <main className="main" hidden={!show('chat')}>
        <ErrorBanner />
        {main}
      </main>
      {review && layout === 'wide' && <Divider pane="review" grow={-1} />}
      {review && (
        <aside className="review" data-testid="review-pane" hidden={!show('review')}>
          {review}
        </aside>
      )}
      <CommandPalette />
    </div>
  );
}
