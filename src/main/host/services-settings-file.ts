/**
 * settings.json as it is on disk right now, for the screens: the core reads the file once at start (and refuses to
 * start on a malformed one), but a user may break or fix it by hand while the app runs. Every settings call reads
 * it again, so a broken file is reported plainly (which line) instead of the screens silently showing defaults,
 * and nothing overwrites it unless the user chose "Reset to defaults" — which first keeps the old bytes as
 * `settings.json.bak-<YYYYMMDD-HHMMSS>` (UTC) beside it.
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { basename } from 'node:path';
import type { SettingsLoadError } from '../../shared/contract';
import type { Settings } from '../agent/service-types';
import { settingsSchema } from '../agent/settings';
import { jsonErrorOffset } from './json-error-offset';

/** The file's state: absent (`settings: null`, no error), usable settings, or why it cannot be used. */
export interface SettingsFileState {
  exists: boolean;
  settings: Settings | null;
  error: SettingsLoadError | null;
}

const HINT =
  'Fix it in a text editor and reload, or choose "Reset to defaults" in Settings (the file is then kept as settings.json.bak-<time>).';

/**
 * 1-based line and column where `raw` stops being JSON: found by walking the grammar (json-error-offset.ts), since
 * V8's message names a position only for some errors; else "(line L column C)" or "at position N" from `message`;
 * else the end of the text.
 */
export function jsonErrorPosition(raw: string, message: string): { line: number; column: number } {
  const walked = jsonErrorOffset(raw);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (walked === null && lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d+)/.exec(message);
  const offset = walked ?? (pos ? Number(pos[1]) : raw.length);
  const before = raw.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/** The reason part of a JSON.parse message, without V8's position suffix. */
function reasonOf(message: string): string {
  return message
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
}

/** Read and check `file` (the core's settings.json). Never throws; never writes. */
export async function readSettingsFile(file: string): Promise<SettingsFileState> {
  const name = basename(file);
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, settings: null, error: null };
    return {
      exists: true,
      settings: null,
      error: { file, message: `${name} cannot be read: ${(e as Error).message}`, hint: HINT },
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    const { line, column } = jsonErrorPosition(raw, (e as Error).message);
    const message = `${name} is not valid JSON at line ${line}, column ${column} (${reasonOf((e as Error).message)}). Landfall did not use it and will not overwrite it.`;
    return { exists: true, settings: null, error: { file, message, hint: HINT, line, column } };
  }
  const parsed = settingsSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
    return {
      exists: true,
      settings: null,
      error: {
        file,
        message: `${name} does not hold valid settings: ${fields}. Landfall did not use it and will not overwrite it.`,
        hint: HINT,
      },
    };
  }
  return { exists: true, settings: parsed.data, error: null };
}

/** `settings.json.bak-YYYYMMDD-HHMMSS` of `now` (UTC). */
function backupName(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${file}.bak-${stamp}`;
}

/**
 * Moves `file` aside as `<file>.bak-<YYYYMMDD-HHMMSS>` (a `-2`, `-3`… suffix when that name is taken) and returns
 * the backup's path. Throws the fs error (e.g. EACCES) — the caller reports it and writes nothing.
 */
export async function backupSettingsFile(file: string, now = new Date()): Promise<string> {
  const base = backupName(file, now);
  let target = base;
  for (let n = 2; existsSync(target); n++) target = `${base}-${n}`;
  await rename(file, target);
  return target;
}
