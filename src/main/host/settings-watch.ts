/**
 * settings.json followed on disk for the Settings screen: when its bytes change — a hand edit in a text editor,
 * another window or the command line on the same data folder, the app's own save — every listener gets
 * `{ type: 'settings.changed', version }` (read.ts settingsVersion), once per new version. The screen then shows
 * the new values, or, with unsaved edits of its own, says the file moved on and offers to reload (renderer
 * stores/settings-slice.ts, settings-form.ts isStale); its
 * save is refused `stale` anyway when the file moved on (agent/settings/save.ts), so the watcher is a courtesy,
 * never the guard.
 *
 * The folder is watched, not the file: editors and atomic writes replace the file by a rename, which a watch on the
 * old inode would miss. Events are a hint (they may come in bursts, or late): each one re-reads the file and only
 * a version different from the last one announced is pushed. Where the system cannot watch (inotify limits), the
 * watcher stays silent and says so once on stderr.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { settingsVersion } from '../agent/settings/read';

export interface SettingsChanged {
  type: 'settings.changed';
  version: string;
}

/** The version of `file` now (absent, unreadable, or the hash of its bytes). */
async function versionNow(file: string): Promise<string> {
  try {
    return settingsVersion(await readFile(file));
  } catch (e) {
    return settingsVersion((e as NodeJS.ErrnoException).code === 'ENOENT' ? null : 'unreadable');
  }
}

/** Follows `file` (module docstring). `on` adds a listener and answers its remover; `close` stops watching. */
export function watchSettings(file: string): {
  on(listener: (e: SettingsChanged) => void): () => void;
  close(): void;
} {
  const listeners = new Set<(e: SettingsChanged) => void>();
  const name = basename(file);
  let last: string | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const check = async (): Promise<void> => {
    do {
      again = false;
      const version = await versionNow(file);
      if (closed || version === last) continue;
      last = version;
      for (const l of listeners) l({ type: 'settings.changed', version });
    } while (again && !closed);
  };
  const poke = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = check().finally(() => (running = undefined));
  };
  void versionNow(file).then((v) => (last ??= v));
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) poke();
    });
    watcher.on('error', () => watcher?.close());
  } catch (e) {
    process.stderr.write(
      `landfall: settings.json is not watched (${(e as Error).message}); reopen Settings to see hand edits\n`,
    );
  }
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      watcher?.close();
      listeners.clear();
    },
  };
}
