/**
 * Saving settings.json without losing what the user wrote in it. Rules, in order:
 *   1. the new settings are checked first (error `invalid_input` naming the fields, one issue per field in
 *      `data.issues`; nothing written);
 *   2. when the caller names the version it loaded (`base`, read.ts settingsVersion) and the file's bytes are no
 *      longer that version — edited by hand, by another window, by the command line — error `stale` with the
 *      version now in `data.version`: a form filled from older values never overwrites a newer file;
 *   3. a file that exists but cannot be used (not JSON-with-comments, not settings, unreadable) is NEVER
 *      overwritten: error `conflict` — the user fixes it by hand, or the app's "Reset to defaults" moves it aside
 *      first (`backupSettingsFile`);
 *   4. a usable file is changed in place (edit-text.ts): only the values that changed are rewritten, so comments,
 *      key order and keys Landfall does not know stay. The result is parsed again and must read back as exactly
 *      the new settings; should it not (a layout jsonc-parser cannot edit cleanly), the old file is first kept as
 *      `settings.json.bak-<time>` and the settings are written as plain JSON — the user's text survives in the
 *      backup, and what is in force is exactly what was saved;
 *   5. no file yet: plain JSON, two-space indented.
 * Every write is atomic (temp file, fsync, rename: src/main/fs/atomic-write.ts); a byte-order mark is kept.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { writeFileAtomic } from '../../fs/atomic-write';
import { editSettingsText } from './edit-text';
import { parseSettingsText, readSettingsFile } from './read';
import { SettingsSchema, settingsIssueList, settingsIssues, type Settings } from './schema';

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

/** The value as JSON sees it (keys holding `undefined` are absent, as in the file). */
const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/** The text to write over a usable file: its own text with the changed values edited, or null when that fails. */
function editedText(text: string, before: Settings, after: Settings): string | null {
  try {
    const edited = editSettingsText(text, before, after);
    const back = parseSettingsText(edited);
    return back.ok && isDeepStrictEqual(asJson(back.settings), asJson(after)) ? edited : null;
  } catch {
    return null;
  }
}

const plainJson = (settings: Settings): string => `${JSON.stringify(settings, null, 2)}\n`;

/**
 * Validate `settings` and write them to `file` by the rules above. `options.base`: the version the caller's values
 * were loaded from (rule 2). Errors, nothing written in any case: `invalid_input` (not valid settings;
 * `data.issues`), `stale` (`data.version`), `conflict` (the file on disk cannot be used; `data.file`).
 */
export async function saveSettings(
  file: string,
  settings: unknown,
  options: { base?: string } = {},
): Promise<Result<Settings>> {
  const parsed = SettingsSchema.safeParse(settings);
  if (!parsed.success)
    return fail(
      'invalid_input',
      `Settings are not valid ${settingsIssues(parsed.error)}`,
      'Correct the named fields and save again.',
      { issues: settingsIssueList(parsed.error) },
    );
  const next = parsed.data;
  const state = await readSettingsFile(file);
  if (options.base !== undefined && state.version !== options.base)
    return fail(
      'stale',
      'settings.json was changed on disk since these settings were loaded; nothing was saved.',
      'Look at the values the file holds now, then save again.',
      { version: state.version },
    );
  if (state.error)
    return fail(
      'conflict',
      state.error.message,
      'Fix settings.json by hand and reload, or choose "Reset to defaults" (the file is then kept as settings.json.bak-<time>).',
      { file },
    );
  let text = plainJson(next);
  if (state.settings && state.text !== null) {
    const edited = editedText(state.text, state.settings, next);
    if (edited !== null) text = `${state.bom ? '\ufeff' : ''}${edited}`;
    else await backupSettingsFile(file);
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, Buffer.from(text, 'utf8'));
  return ok(next);
}
