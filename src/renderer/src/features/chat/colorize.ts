/**
 * Code-block colouring for the chat with Monaco's colorizer (`monaco.editor.colorize`): the bundled Monaco
 * (permission/monaco.ts, loaded on first use) plus the tokenizers of the languages an agent most often writes,
 * each itself loaded on first use. The colorizer returns escaped HTML whose tokens carry `mtk<n>` classes; n
 * indexes the colour map of the theme in force, so the theme is set to the OS's (light / dark) before every call,
 * and a block is coloured again when the OS scheme changes.
 */
import 'monaco-editor/languages/definitions/typescript/register';
import 'monaco-editor/languages/definitions/javascript/register';
import 'monaco-editor/languages/definitions/python/register';
import 'monaco-editor/languages/definitions/shell/register';
import 'monaco-editor/languages/definitions/powershell/register';
import 'monaco-editor/languages/definitions/css/register';
import 'monaco-editor/languages/definitions/scss/register';
import 'monaco-editor/languages/definitions/html/register';
import 'monaco-editor/languages/definitions/xml/register';
import 'monaco-editor/languages/definitions/markdown/register';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/definitions/ini/register';
import 'monaco-editor/languages/definitions/dockerfile/register';
import 'monaco-editor/languages/definitions/sql/register';
import 'monaco-editor/languages/definitions/go/register';
import 'monaco-editor/languages/definitions/rust/register';
import 'monaco-editor/languages/definitions/java/register';
import 'monaco-editor/languages/definitions/kotlin/register';
import 'monaco-editor/languages/definitions/cpp/register';
import 'monaco-editor/languages/definitions/csharp/register';
import 'monaco-editor/languages/definitions/ruby/register';
import 'monaco-editor/languages/definitions/php/register';
import 'monaco-editor/languages/definitions/swift/register';
import 'monaco-editor/languages/definitions/lua/register';
import { monaco, osTheme } from '../permission/monaco';
import { languageFor } from './code-language';

/**
 * `code` as colourized HTML (Monaco escapes the text; lines joined by <br/>, none after the last) for the fence word `word` in the
 * current OS theme, or null when no registered language matches the word.
 */
export async function colorize(code: string, word: string): Promise<string | null> {
  const id = languageFor(word, monaco.languages.getLanguages());
  if (!id) return null;
  monaco.editor.setTheme(osTheme());
  const html = await monaco.editor.colorize(code.replace(/\n$/, ''), id, { tabSize: 2 });
  // The colorizer ends every line with a break; the last one would add a line the code does not have.
  return html.replace(/<br\s*\/?>\s*$/, '');
}
