/**
 * Where Landfall keeps its own files (the session database, snapshot stores, settings, the write journal): the
 * folder a `--data` flag names, else `$LANDFALL_DATA_DIR`, else `~/.landfall`. One rule for every host — the app,
 * the web host, `landfall session` and the one-shot tool commands — so a write journaled by one of them is found
 * and rolled back by the next start of any other (README "Configuration": the data folder).
 */
import os from 'node:os';
import path from 'node:path';

/** The absolute data folder: `flag` when given, else `env.LANDFALL_DATA_DIR` (when not empty), else `~/.landfall`. */
export function dataDirOf(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['LANDFALL_DATA_DIR'];
  return path.resolve(flag ?? (fromEnv ? fromEnv : path.join(os.homedir(), '.landfall')));
}

/** The write journal's folder inside data folder `dataDir` (`<dataDir>/journal`, README "Every write is atomic"). */
export function journalDirOf(dataDir: string): string {
  return path.join(dataDir, 'journal');
}
