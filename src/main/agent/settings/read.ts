/**
 * The one reader of settings.json — for the core when it opens (`loadSettings`), for every tool call while it
 * runs (live.ts), and for the screens (`readSettingsFile`: a user may break or fix the file by hand while the app
 * runs, so every settings call reads it again and reports a broken file plainly instead of showing defaults).
 *
 * The text is JSON with comments (line and block) and trailing commas, as VS Code reads its own settings
 * (jsonc-parser); a leading byte-order mark is ignored. A syntax error is reported with its 1-based line and
 * column — for a bad character inside a string, the column of that very character — and a text that parses but
 * is not settings names every bad field (`at providers.0.kind: …`). Reading never writes; a file that cannot be
 * used is never overwritten by Landfall (save.ts refuses; only "Reset to defaults" moves it aside first).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { SettingsLoadError } from '../../../shared/settings-schemas';
import { fail, ok } from '../../../shared/errors';
import type { Result } from '../../../shared/errors';
import { DEFAULT_SETTINGS, SettingsSchema, settingsIssues, type Settings } from './schema';

/**
 * The file's state: absent (`settings: null`, no error), usable settings, or why it cannot be used. `text` is the
 * file's text as read (without a byte-order mark; `bom` says whether it had one), null when absent or unreadable.
 * `version` names these very bytes (settingsVersion): a screen that loaded one version and saves is `stale` when
 * the file has another by then (save.ts).
 */
export interface SettingsFileState {
  exists: boolean;
  settings: Settings | null;
  error: SettingsLoadError | null;
  text: string | null;
  bom: boolean;
  version: string;
}

/** Version of an absent file. */
export const ABSENT_VERSION = 'absent';

/**
 * The version of settings.json's bytes: `sha256:<hex>` of exactly what is on disk (byte-order mark and line
 * endings included, so any edit is a new version), `absent` when there is no file, `unreadable` when it exists but
 * cannot be read.
 */
export function settingsVersion(raw: Buffer | null | 'unreadable'): string {
  if (raw === null) return ABSENT_VERSION;
  if (raw === 'unreadable') return 'unreadable';
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** How the settings text parses: the settings, or why not (with the line and column of a syntax error). */
export type ParsedSettings =
  | { ok: true; settings: Settings; json: unknown }
  | { ok: false; reason: 'syntax'; detail: string; line: number; column: number }
  | { ok: false; reason: 'fields'; detail: string };

/** Options every read and the save's check use: comments and trailing commas allowed, empty text is an error. */
export const JSONC_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false };

const SCREEN_HINT =
  'Fix it in a text editor and reload, or choose "Reset to defaults" in Settings (the file is then kept as settings.json.bak-<time>).';

/** 1-based line and column of a UTF-16 offset into `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

// eslint-disable-next-line no-control-regex -- a raw control character is exactly what is searched for
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

/**
 * Where an error really is: jsonc-parser reports a bad character or escape inside a string at the string's start;
 * the person fixing the file wants the character itself (a raw tab, `\q`, `\u12`).
 */
function pinpoint(text: string, e: ParseError): number {
  const token = text.slice(e.offset, e.offset + e.length);
  const code = printParseErrorCode(e.error);
  const at =
    code === 'InvalidCharacter'
      ? token.search(CONTROL_CHARACTER)
      : code === 'InvalidEscapeCharacter' || code === 'InvalidUnicode'
        ? token.search(/\\(?:[^"\\/bfnrtu]|u(?![0-9a-fA-F]{4}))/)
        : -1;
  return at > 0 ? e.offset + at : e.offset;
}

/** "CommaExpected" → "comma expected". */
function words(e: ParseError): string {
  return printParseErrorCode(e.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** Parse settings text (module docstring). Pure: string in, settings or the reason out. */
export function parseSettingsText(text: string): ParsedSettings {
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, JSONC_OPTIONS);
  const first = errors[0];
  if (first) return { ok: false, reason: 'syntax', detail: words(first), ...lineColumn(text, pinpoint(text, first)) };
  const parsed = SettingsSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'fields', detail: settingsIssues(parsed.error) };
  return { ok: true, settings: parsed.data, json };
}

/** The sentence naming what is wrong, starting with `label` (the file's name or path). */
function describe(label: string, p: Exclude<ParsedSettings, { ok: true }>): string {
  return p.reason === 'syntax'
    ? `${label} is not valid JSON at line ${p.line}, column ${p.column} (${p.detail})`
    : `${label} does not hold valid settings ${p.detail}`;
}

/** Strip a leading byte-order mark (Windows editors write one); says whether there was one. */
function withoutBom(raw: string): { text: string; bom: boolean } {
  return raw.charCodeAt(0) === 0xfeff ? { text: raw.slice(1), bom: true } : { text: raw, bom: false };
}

/** Read and check `file` (settings.json) for the screens. Never throws; never writes. */
export async function readSettingsFile(file: string): Promise<SettingsFileState> {
  const name = basename(file);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      return { exists: false, settings: null, error: null, text: null, bom: false, version: ABSENT_VERSION };
    const message = `${name} cannot be read: ${(e as Error).message}`;
    const error = { file, message, hint: SCREEN_HINT };
    return { exists: true, settings: null, error, text: null, bom: false, version: settingsVersion('unreadable') };
  }
  const version = settingsVersion(bytes);
  const { text, bom } = withoutBom(bytes.toString('utf8'));
  const parsed = parseSettingsText(text);
  if (parsed.ok) return { exists: true, settings: parsed.settings, error: null, text, bom, version };
  const message = `${describe(name, parsed)}. Landfall did not use it and will not overwrite it.`;
  const at = parsed.reason === 'syntax' ? { line: parsed.line, column: parsed.column } : {};
  return { exists: true, settings: null, error: { file, message, hint: SCREEN_HINT, ...at }, text, bom, version };
}

/**
 * Read settings from `file` for the core: the defaults when it is absent. Error `invalid_input` when it cannot
 * be read or is not valid settings (message naming the path and the line and column, or the fields; `data` has
 * `file`, and `line`/`column` for a syntax error); the file is left untouched.
 */
export async function loadSettings(file: string): Promise<Result<Settings>> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ok(structuredClone(DEFAULT_SETTINGS));
    return fail('invalid_input', `${file} cannot be read: ${(e as Error).message}`, 'Check its permissions.', { file });
  }
  const parsed = parseSettingsText(withoutBom(raw).text);
  if (parsed.ok) return ok(parsed.settings);
  const at = parsed.reason === 'syntax' ? { line: parsed.line, column: parsed.column } : {};
  return fail(
    'invalid_input',
    describe(file, parsed),
    parsed.reason === 'syntax'
      ? 'Fix the file (comments and trailing commas are fine), or delete it to get the defaults back.'
      : 'Fix the named fields, or delete the file to get the defaults back.',
    { file, ...at },
  );
}
