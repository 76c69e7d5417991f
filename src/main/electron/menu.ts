/**
 * The application menu: the usual Edit / View / Window roles (so copy, paste, undo in text fields, zoom and
 * full screen work with their standard shortcuts) plus Landfall's own items, which ask the window to run a palette
 * command through the `app.command` event. Their accelerators come from the one key table (src/shared/keymap.ts);
 * the window's key handler hears the same keys first, so the menu's accelerator only fires when the window did
 * not take the key.
 */
import { Menu, app } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../shared/contract';
import { menuAccelerator } from '../../shared/keymap';

const keys = (id: AppCommand): { accelerator?: string } => {
  const accelerator = menuAccelerator(id);
  return accelerator ? { accelerator } : {};
};

/** Builds and installs the menu. `send` delivers a command to the window. */
export function installMenu(send: (command: AppCommand) => void, dev: boolean): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', ...keys('project.pick'), click: () => send('project.pick') },
        { label: 'New Session', ...keys('session.new'), click: () => send('session.new') },
        { label: 'Projects', click: () => send('view.projects') },
        { type: 'separator' },
        { label: 'Settings…', ...keys('view.settings'), click: () => send('view.settings') },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'Session',
      submenu: [
        { label: 'Command Palette…', ...keys('view.palette'), click: () => send('view.palette') },
        { label: 'Stop', click: () => send('chat.stop') },
        { label: 'Undo Last Turn', click: () => send('history.undo') },
        { label: 'Redo Turn', click: () => send('history.redo') },
        { type: 'separator' },
        { label: 'Replay the Sample Session', click: () => send('sample.replay') },
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(dev
          ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }]
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: `Landfall ${app.getVersion()}`, enabled: false }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
