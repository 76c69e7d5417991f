/**
 * Which Monaco language colours a fenced code block: the fence's info word (```ts, ```bash, ```Python) matched,
 * without regard to case, against each registered language's id, its aliases and its file extensions (so `sh`,
 * `bash` and `zsh` find "shell" through `.sh` / `.bash` / `.zsh`), after a few names Monaco spells otherwise.
 * An unknown or missing word means no colouring (plain text), never a guess.
 */

/** What Monaco says about one registered language (`monaco.languages.getLanguages()`). */
export interface LanguageInfo {
  id: string;
  aliases?: string[];
  extensions?: string[];
}

/** Names a fence often uses that Monaco registers under another id (JSON has no tokenizer of its own here). */
const RENAMED: Record<string, string> = {
  json: 'javascript',
  jsonc: 'javascript',
  json5: 'javascript',
  console: 'shell',
};

/** The fence info word of a `language-<word>` class name react-markdown gives fenced code, or null. */
export function fenceWord(className: string | undefined): string | null {
  const m = /(?:^|\s)language-(\S+)/.exec(className ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

/** The id of the language for `word` among `languages`, or null when none matches. */
export function languageFor(word: string, languages: readonly LanguageInfo[]): string | null {
  const w = RENAMED[word.toLowerCase()] ?? word.toLowerCase();
  const byId = languages.find((l) => l.id.toLowerCase() === w);
  if (byId) return byId.id;
  const byAlias = languages.find((l) => l.aliases?.some((a) => a.toLowerCase() === w));
  if (byAlias) return byAlias.id;
  const byExt = languages.find((l) => l.extensions?.some((e) => e.toLowerCase() === `.${w}`));
  return byExt ? byExt.id : null;
}
