/**
 * Changing settings text the way a person would: only the values that changed are rewritten, so the user's
 * comments, blank lines, key order, trailing commas and keys Landfall does not know stay where they were.
 *
 * Algorithm: walk the old settings (as the schema read them) beside the new ones. Equal values are left alone;
 * objects are compared key by key (a key the new value lacks is removed); arrays element by element (extra
 * elements appended at the end, missing ones removed from the end; an array the text does not hold at all — a
 * schema default such as an absent `permissions` — is written whole); anything else — a changed string, number,
 * or a value whose type changed — is replaced whole with jsonc-parser's `modify`, each edit applied to the text
 * the previous one produced. Comments inside a replaced value go with it; comments anywhere else stay.
 *
 * Pure: strings and values in, text out. It may throw when jsonc-parser cannot place an edit; save.ts catches
 * that and checks the result before anything is written.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The indentation the file already uses (tabs, or the width of its first indented line), else two spaces. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

/** `text` with the value at `path` set (or removed, `undefined`); removing what is not there changes nothing. */
function setAt(text: string, path: JSONPath, value: unknown, formatting: FormattingOptions): string {
  if (value === undefined && !findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, path))
    return text;
  return applyEdits(text, modify(text, path, value, { formattingOptions: formatting }));
}

/** True when the text holds a value at `path` (the schema may have filled an absent key with a default). */
function present(text: string, path: JSONPath): boolean {
  const root = parseTree(text);
  return root !== undefined && findNodeAtLocation(root, path) !== undefined;
}

function editArray(text: string, path: JSONPath, before: unknown[], after: unknown[], f: FormattingOptions): string {
  // an array the file does not hold (the schema's default, e.g. `permissions` left out) is written whole
  if (!present(text, path)) return setAt(text, path, after, f);
  let out = text;
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) out = editValue(out, [...path, i], before[i], after[i], f);
  for (let i = common; i < after.length; i++) out = setAt(out, [...path, -1], after[i], f);
  for (let i = before.length - 1; i >= after.length; i--) out = setAt(out, [...path, i], undefined, f);
  return out;
}

function editValue(text: string, path: JSONPath, before: unknown, after: unknown, f: FormattingOptions): string {
  if (isDeepStrictEqual(before, after)) return text;
  if (isObject(before) && isObject(after)) {
    if (path.length > 0 && !present(text, path)) return setAt(text, path, after, f);
    let out = text;
    for (const key of Object.keys(after)) out = editValue(out, [...path, key], before[key], after[key], f);
    for (const key of Object.keys(before)) if (!(key in after)) out = setAt(out, [...path, key], undefined, f);
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) return editArray(text, path, before, after, f);
  return setAt(text, path, after, f);
}

/**
 * `text` (a JSON-with-comments document whose known values are `before`) changed so that its values become
 * `after`, touching only what differs (module docstring). `undefined` values inside `after` count as absent.
 */
export function editSettingsText(text: string, before: unknown, after: unknown): string {
  const plain = JSON.parse(JSON.stringify(after)) as unknown;
  return editValue(text, [], before, plain, formattingOf(text));
}
