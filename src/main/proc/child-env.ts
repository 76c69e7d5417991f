/**
 * The environment of every child process Landfall starts: the bash tool's shell, language servers, and (later)
 * MCP servers. A model that runs `env` in bash, or a server that logs its environment, must never see a key, so
 * children get the parent's environment with every secret-bearing variable removed (a scrub, not an allow-list:
 * tools the user runs through bash need PATH, HOME, LANG, proxies, toolchain variables we cannot list).
 *
 * A variable is removed when ANY of these holds (names compared case-insensitively):
 *  1. Landfall's own key variables: `LANDFALL_API_KEY`, `LANDFALL_KEY_*`.
 *  2. A name some registered source reports (`registerSecretSource`): the `apiKeyEnv` of every provider in the
 *     settings, read at each spawn so a settings change applies at once. A name once reported stays removed for
 *     the life of the process (the old variable may still hold a key after the setting moved to another one).
 *  3. A well-known secret-bearing name: it contains KEY, SECRET, TOKEN, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL,
 *     COOKIE, PRIVATE or JWT; or has AUTH as a `_`-separated word (NPM_CONFIG__AUTH, BASIC_AUTH_USER); or starts
 *     with AWS_ or AZURE_ (whole credential families). Kept on purpose: SSH_AUTH_SOCK (a socket path, not a
 *     secret; git over ssh needs it).
 *  4. A value that carries a credential anywhere in it, whatever its name: a URL with a password
 *     (`scheme://user:pass@`), a PEM private key, a JSON Web Token, a token with a vendor prefix (sk-, sk-ant-,
 *     ghp_/gho_/ghu_/ghs_/ghr_, github_pat_, glpat-, xox?-, hf_, npm_, AKIA…), an HTTP credential
 *     (`Bearer <token>`, `Basic <base64>`), or a credential assignment (`_authToken=`, `_auth=`, `_password=`, and
 *     `token=` / `apikey=` / `secret=` / `password=` with a value of 8+ characters) — so `HDR="Bearer <key>"` and
 *     `NPMRC="//registry.npmjs.org/:_authToken=npm_…"` are removed like the bare key.
 *  5. A value that CONTAINS a secret: the value of any variable removed by 1–4, or a value a source reports (keys
 *     held in the OS secret store), when that secret is at least 8 characters long (so `1` or `true` never empties
 *     a variable). A key wrapped in a header, a config line or a command is removed with its wrapper. Containment
 *     is judged only for key-shaped secrets (no whitespace, not starting with `/`, `~` or `.`): a path kept in a
 *     secret-named variable (`KEYTAB_DIR=/home/dev`) removes only variables EQUAL to it, never HOME or PATH.
 * `ELECTRON_RUN_AS_NODE` is removed too: it is the app binary's own mode switch, not the child's business.
 *
 * Why a scrub wins over "safer for the user's secrets" only when combined with 4 and 5: an allow-list would break
 * ordinary builds, and rules 4–5 catch keys stored under names nobody could predict.
 */

/** What a source knows: variable names that hold keys, and key values (from a secret store). */
export interface SecretHints {
  names?: Iterable<string | undefined>;
  values?: Iterable<string | undefined>;
}

type Source = () => SecretHints;

const sources = new Set<Source>();
const rememberedNames = new Set<string>();

const SECRET_WORD = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|PRIVATE|JWT/i;
const AUTH_WORD = /(^|_)AUTH(_|$)/i;
const FAMILY = /^(AWS|AZURE)_/i;
const LANDFALL_KEY = /^LANDFALL_(API_KEY$|KEY_)/i;
const KEEP = new Set(['SSH_AUTH_SOCK']);
const ALWAYS_DROP = new Set(['ELECTRON_RUN_AS_NODE']);
const MIN_SECRET_VALUE = 8;
/** A secret value that is a path or has spaces: only an equal value is removed with it (rule 5). */
const PATH_LIKE = /^[/~.]|\s/;

/** Not preceded by a letter or digit: a vendor prefix starts a token, it is not the tail of a word (`task-…`). */
const B = '(?<![A-Za-z0-9])';
const SECRET_VALUE = [
  /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i, // URL with user:password@
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  new RegExp(`${B}eyJ[\\w-]{8,}\\.eyJ[\\w-]{8,}\\.[\\w-]+`), // JSON Web Token
  new RegExp(`${B}sk-(ant-)?[\\w-]{16,}`),
  new RegExp(`${B}gh[pousr]_[A-Za-z0-9]{20,}`),
  new RegExp(`${B}github_pat_\\w{20,}`),
  new RegExp(`${B}glpat-[\\w-]{16,}`),
  new RegExp(`${B}xox[abposr]-[\\w-]{10,}`),
  new RegExp(`${B}hf_[A-Za-z0-9]{20,}`),
  new RegExp(`${B}npm_[A-Za-z0-9]{30,}`),
  new RegExp(`${B}(AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])`),
  /\bBearer\s+[\w~+/.=-]{8,}/i, // an Authorization header's credential
  /\bBasic\s+[A-Za-z0-9+/]{8,}={0,2}/, // HTTP basic credentials (base64 of user:password)
  /_(authToken|auth|password)\s*=\s*\S/i, // .npmrc / .yarnrc credential lines
  /\b[\w-]*(token|api[_-]?key|secret|passw(or)?d|pwd)\s*[=:]\s*["']?[^\s"'&;,]{8,}/i, // token=…, apikey: …
];

/**
 * Adds a source of secret names and values, asked at every spawn. Returns the function that removes it (names it
 * reported stay remembered). The agent service registers its providers' `apiKeyEnv`; the host its stored keys.
 */
export function registerSecretSource(source: Source): () => void {
  sources.add(source);
  remember(source);
  return () => void sources.delete(source);
}

/**
 * Forgets every remembered name (tests only: the test files of one vitest fork share this module, and a file that
 * registered hundreds of random names must not scrub them from a later file's children). The app never calls it.
 */
export function forgetRememberedNames(): void {
  rememberedNames.clear();
}

function remember(source: Source): Set<string> {
  const values = new Set<string>();
  let hints: SecretHints;
  try {
    hints = source();
  } catch {
    return values; // a broken source must not stop a spawn; the name and value rules still apply
  }
  for (const n of hints.names ?? []) if (n) rememberedNames.add(n.toUpperCase());
  for (const v of hints.values ?? []) if (v && v.length >= MIN_SECRET_VALUE) values.add(v);
  return values;
}

/** True when the variable `name` is removed by its name alone (rules 1–3 and the remembered names of rule 2). */
export function isSecretName(name: string): boolean {
  if (KEEP.has(name)) return false;
  const upper = name.toUpperCase();
  return (
    ALWAYS_DROP.has(upper) ||
    LANDFALL_KEY.test(name) ||
    rememberedNames.has(upper) ||
    SECRET_WORD.test(name) ||
    AUTH_WORD.test(name) ||
    FAMILY.test(name)
  );
}

/** True when `value` carries something shaped like a credential anywhere in it (rule 4), whatever its name. */
export function looksLikeSecretValue(value: string): boolean {
  return SECRET_VALUE.some((re) => re.test(value));
}

/**
 * The environment for a child process: `parent` (default process.env) scrubbed by the rules above, then `extra`
 * (variables Landfall itself sets for that child, e.g. a server's own flags) laid over it. Returns a new object;
 * `parent` is not changed. Reads the registered sources now, so settings changed a moment ago apply.
 */
export function childEnv(
  extra: Record<string, string> = {},
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const secretValues = new Set<string>();
  for (const source of sources) for (const v of remember(source)) secretValues.add(v);
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (isSecretName(name) || looksLikeSecretValue(value)) {
      if (value.length >= MIN_SECRET_VALUE) secretValues.add(value);
    } else kept.push([name, value]);
  }
  const keyShaped = [...secretValues].filter((v) => !PATH_LIKE.test(v));
  const env: Record<string, string> = {};
  for (const [name, value] of kept)
    if (!secretValues.has(value) && !keyShaped.some((key) => value.includes(key))) env[name] = value;
  return { ...env, ...extra };
}
