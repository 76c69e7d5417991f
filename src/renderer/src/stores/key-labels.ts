/**
 * The keys of a command as this window shows them (palette, tooltips): from the key table (src/shared/keymap.ts),
 * written for this platform (⇧⌘P on macOS, Ctrl+Shift+P elsewhere), and in the web host only the keys the browser
 * delivers to a page (Ctrl+N opens a window in Chrome, so reject shows Alt+N there). The desktop app shows every key.
 */
import { commandKeys, formatChord, reachesPage, type Browser, type CommandId } from '../../../shared/keymap';
import { useStore } from './index';

/** Where the window runs: the transport (from app.info), macOS or not, and which browser (for the web host). */
export interface KeyHost {
  transport: 'electron' | 'web';
  mac: boolean;
  browser: Browser;
}

/** This window's KeyHost, read from the store's app info and the user agent. */
export function keyHost(): KeyHost {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  return {
    transport: useStore.getState().info?.transport ?? 'web',
    mac: /Mac|iPhone|iPad/.test(ua),
    browser: /Firefox\//.test(ua) ? 'firefox' : 'chrome',
  };
}

/** The command's keys written for `host` (see the module docstring); empty when it has none there. */
export function keyLabels(id: CommandId, host: KeyHost = keyHost()): string[] {
  return commandKeys(id)
    .keys.filter((k) => host.transport === 'electron' || reachesPage(k, host.browser))
    .map((k) => formatChord(k, host.mac ? 'mac' : 'pc'));
}

/** "Label (keys)" for a tooltip, or the label alone when the command has no key here. */
export function withKeys(label: string, id: CommandId): string {
  const keys = keyLabels(id);
  return keys.length > 0 ? `${label} (${keys.join(' or ')})` : label;
}
