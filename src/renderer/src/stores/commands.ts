/**
 * The command palette's commands (also what the application menu sends by id): a label, an optional shortcut to
 * show, and the store action it runs — history moves are the history slice's, like every other entry point's.
 */
import type { Store } from './types';

export interface Command {
  id: string;
  label: string;
  shortcut?: string;
  run(store: Store): void | Promise<void>;
  /** Shown only when this is true. */
  when?(store: Store): boolean;
}

export const COMMANDS: Command[] = [
  { id: 'session.new', label: 'New session', run: (s) => s.newSession(), when: (s) => s.project !== null },
  { id: 'chat.stop', label: 'Stop the running turn', shortcut: 'Esc Esc', run: (s) => s.stop(), when: (s) => s.busy },
  { id: 'history.undo', label: 'Undo the last turn (/undo)', run: (s) => s.undo(), when: (s) => s.sessionId !== null },
  { id: 'history.redo', label: 'Redo (/redo)', run: (s) => s.redo(), when: (s) => s.sessionId !== null },
  {
    id: 'history.unrevert',
    label: 'Unrevert: bring back everything undone',
    run: (s) => s.unrevert(),
    when: (s) => s.sessions.some((x) => x.id === s.sessionId && Boolean(x.revert)),
  },
  { id: 'project.pick', label: 'Open folder…', run: (s) => s.pickFolder(), when: (s) => s.info?.nativeDialog === true },
  { id: 'view.projects', label: 'Open a project…', run: (s) => s.setScreen('projects') },
  { id: 'view.settings', label: 'Settings', run: (s) => s.setScreen('settings') },
  { id: 'view.chat', label: 'Back to the chat', run: (s) => s.setScreen('chat'), when: (s) => s.project !== null },
  { id: 'sample.replay', label: 'Replay the sample session', run: (s) => s.openSample() },
];

/** Runs a command by id (the application menu sends ids); `view.palette` opens the palette itself. */
export function runCommand(store: Store, id: string): void {
  if (id === 'view.palette') return store.setPalette(true);
  const cmd = COMMANDS.find((c) => c.id === id);
  if (cmd && (cmd.when ? cmd.when(store) : true)) void cmd.run(store);
}
