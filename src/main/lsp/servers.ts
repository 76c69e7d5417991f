/**
 * The catalog of language servers Landfall knows how to run (DESIGN §7).
 *
 * Each entry says which files it serves (extensions → LSP language ids), how its root is found (the nearest
 * marker walking up from the file, bounded by the project root, so monorepo sub-projects get their own process),
 * where its binary comes from (the project's node_modules/.bin, then the copy bundled with Landfall, then PATH),
 * what it is told at `initialize`, and how fast it answers. The latencies are the medians measured in DESIGN §7;
 * timeouts are derived from them (see `timeoutsFor`) instead of one fixed wait for every server.
 *
 * User settings (`LspSettings`) can turn a built-in server off or add a server of their own.
 */
import { z } from 'zod';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import { tsserverPath, type ServerCommand } from './discover';

export type { ServerCommand } from './discover';

/** Context handed to `initializationOptions` builders: the server's root and the project root (absolute). */
export interface InitContext {
  root: string;
  projectRoot: string;
}

export interface ServerSpec {
  id: string;
  /** Lower-case extensions with the dot ('.ts') mapped to the LSP language id sent in didOpen. */
  languages: Record<string, string>;
  /** File or folder names whose nearest occurrence (walking up, bounded by the project root) marks the root. */
  rootMarkers: string[];
  command: ServerCommand;
  /** Other executables the server needs to report anything (bash-language-server needs shellcheck). */
  requires?: string[];
  initializationOptions?: (ctx: InitContext) => unknown;
  /** Answers to workspace/configuration, by section ('yaml', 'json'…); unknown sections get `{}` (never null). */
  settings?: Record<string, unknown>;
  /** Measured medians in ms (DESIGN §7): spawn → initialized, open → first diagnostics, change → fresh diagnostics. */
  latency: { initMs: number; firstMs: number; changeMs: number };
  /** A server-specific pull path for push-only servers (tsserver answers synchronous diagnostic requests). */
  pullAdapter?: 'tsserver';
  /** Quiet period after the last push before a push is taken as final (servers push in several parts). */
  quietMs?: number;
}

/** Timeouts in ms for one server, from its measured latency (not one fixed number for all). */
export interface ServerTimeouts {
  initMs: number;
  firstMs: number;
  changeMs: number;
}

/**
 * Per-server timeouts: several times the measured median, with floors that absorb a loaded 2-core machine.
 * `scale` multiplies everything (tests and benchmarks on a busy machine pass > 1).
 */
export function timeoutsFor(spec: ServerSpec, scale = 1): ServerTimeouts {
  return {
    initMs: Math.round(Math.max(5_000, spec.latency.initMs * 12) * scale),
    firstMs: Math.round(Math.max(6_000, spec.latency.firstMs * 4) * scale),
    changeMs: Math.round(Math.max(2_000, spec.latency.changeMs * 8) * scale),
  };
}

const js = { '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact' };
const ts = { '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact' };

/** The built-in servers. */
export const BUILTIN_SERVERS: ServerSpec[] = [
  {
    id: 'typescript',
    languages: { ...ts, ...js },
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    command: {
      bin: 'typescript-language-server',
      args: ['--stdio'],
      bundled: { pkg: 'typescript-language-server', binName: 'typescript-language-server' },
    },
    // The project's TypeScript when it ships tsserver.js, else the bundled TypeScript 6 (TS 7 has none).
    // Automatic type acquisition is off: it runs npm in the background (network, seconds of delay).
    initializationOptions: ({ root, projectRoot }) => ({
      tsserver: { path: tsserverPath(root, projectRoot), logVerbosity: 'off' },
      disableAutomaticTypingAcquisition: true,
      hostInfo: 'landfall',
    }),
    latency: { initMs: 150, firstMs: 2_900, changeMs: 375 },
    pullAdapter: 'tsserver',
    quietMs: 150,
  },
  {
    id: 'pyright',
    languages: { '.py': 'python', '.pyi': 'python' },
    rootMarkers: ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'],
    command: {
      bin: 'pyright-langserver',
      args: ['--stdio'],
      bundled: { pkg: 'pyright', binName: 'pyright-langserver' },
    },
    settings: { python: { analysis: { diagnosticMode: 'openFilesOnly', autoSearchPaths: true } } },
    latency: { initMs: 250, firstMs: 1_600, changeMs: 50 },
  },
  {
    id: 'json',
    languages: { '.json': 'json', '.jsonc': 'jsonc' },
    rootMarkers: [],
    command: {
      bin: 'vscode-json-language-server',
      args: ['--stdio'],
      bundled: { pkg: 'vscode-langservers-extracted', binName: 'vscode-json-language-server' },
    },
    initializationOptions: () => ({ provideFormatter: false }),
    settings: { json: { validate: { enable: true }, schemas: [] } },
    latency: { initMs: 350, firstMs: 500, changeMs: 10 },
  },
  {
    id: 'css',
    languages: { '.css': 'css', '.scss': 'scss', '.less': 'less' },
    rootMarkers: [],
    command: {
      bin: 'vscode-css-language-server',
      args: ['--stdio'],
      bundled: { pkg: 'vscode-langservers-extracted', binName: 'vscode-css-language-server' },
    },
    initializationOptions: () => ({ provideFormatter: false }),
    settings: { css: { validate: true }, scss: { validate: true }, less: { validate: true } },
    latency: { initMs: 350, firstMs: 500, changeMs: 10 },
  },
  {
    id: 'html',
    languages: { '.html': 'html', '.htm': 'html' },
    rootMarkers: [],
    command: {
      bin: 'vscode-html-language-server',
      args: ['--stdio'],
      bundled: { pkg: 'vscode-langservers-extracted', binName: 'vscode-html-language-server' },
    },
    initializationOptions: () => ({ provideFormatter: false, embeddedLanguages: { css: true, javascript: true } }),
    // The embedded-JavaScript mode reads js/ts.implicitProjectConfig without a guard: an empty answer makes
    // every validation throw (and report nothing).
    settings: {
      html: { validate: { scripts: true, styles: true } },
      css: { validate: true },
      javascript: { validate: { enable: true } },
      'js/ts': { implicitProjectConfig: { experimentalDecorators: false, strictNullChecks: true } },
    },
    latency: { initMs: 350, firstMs: 500, changeMs: 10 },
  },
  {
    id: 'yaml',
    languages: { '.yaml': 'yaml', '.yml': 'yaml' },
    rootMarkers: [],
    command: {
      bin: 'yaml-language-server',
      args: ['--stdio'],
      bundled: { pkg: 'yaml-language-server', binName: 'yaml-language-server' },
    },
    // schemaStore off: the server would otherwise download the schema catalog at run time.
    settings: { yaml: { validate: true, schemaStore: { enable: false }, schemas: {} } },
    latency: { initMs: 400, firstMs: 600, changeMs: 205 },
    quietMs: 100,
  },
  {
    id: 'bash',
    languages: { '.sh': 'shellscript', '.bash': 'shellscript' },
    rootMarkers: [],
    command: {
      bin: 'bash-language-server',
      args: ['start'],
      bundled: { pkg: 'bash-language-server', binName: 'bash-language-server' },
    },
    requires: ['shellcheck'],
    settings: { bashIde: { backgroundAnalysisMaxFiles: 0, shellcheckPath: 'shellcheck' } },
    latency: { initMs: 400, firstMs: 900, changeMs: 520 },
    // Versioned pushes, one per analysis: a short quiet period suffices.
    quietMs: 30,
  },
];

/** A server added by the user: a command line, the extensions it serves, optional markers and options. */
const userServerSchema = z.object({
  id: z.string().min(1),
  command: z.array(z.string().min(1)).min(1),
  extensions: z.array(z.string().regex(/^\.[A-Za-z0-9_.+-]+$/)).min(1),
  languageId: z.string().min(1).optional(),
  rootMarkers: z.array(z.string().min(1)).default([]),
  initializationOptions: z.unknown().optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  latencyMs: z.number().positive().optional(),
});

/** User settings for the LSP layer: servers to turn off (by id) and servers to add. */
export const lspSettingsSchema = z.object({
  disabled: z.array(z.string()).default([]),
  servers: z.array(userServerSchema).default([]),
});

export type LspSettings = z.input<typeof lspSettingsSchema>;

/**
 * The effective catalog: built-ins minus `disabled`, plus user servers (a user server with a built-in's id
 * replaces it). Bad settings are an `invalid_input` failure naming the field; nothing is half-applied.
 */
export function buildCatalog(settings: LspSettings = {}): Result<ServerSpec[]> {
  const parsed = lspSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(
      'invalid_input',
      `LSP settings are invalid at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`,
      'Fix the lsp settings entry and save again.',
    );
  }
  const { disabled, servers } = parsed.data;
  const userIds = new Set(servers.map((s) => s.id));
  const catalog = BUILTIN_SERVERS.filter((s) => !disabled.includes(s.id) && !userIds.has(s.id));
  for (const user of servers) {
    if (disabled.includes(user.id)) continue;
    const [bin, ...args] = user.command as [string, ...string[]];
    const languages = Object.fromEntries(user.extensions.map((e) => [e.toLowerCase(), user.languageId ?? e.slice(1)]));
    const latency = user.latencyMs ?? 500;
    catalog.push({
      id: user.id,
      languages,
      rootMarkers: user.rootMarkers,
      command: { bin, args },
      initializationOptions: () => user.initializationOptions,
      latency: { initMs: 500, firstMs: Math.max(latency * 4, 1_000), changeMs: latency },
      ...(user.settings ? { settings: user.settings } : {}),
    });
  }
  return ok(catalog);
}

/** The servers serving a file, by its lower-cased extension. */
export function serversFor(catalog: ServerSpec[], absPath: string): ServerSpec[] {
  const dot = absPath.lastIndexOf('.');
  const slash = Math.max(absPath.lastIndexOf('/'), absPath.lastIndexOf('\\'));
  if (dot <= slash) return [];
  const ext = absPath.slice(dot).toLowerCase();
  return catalog.filter((s) => s.languages[ext] !== undefined);
}

/** The LSP language id a server uses for a file ('plaintext' when the extension is unknown). */
export function languageIdOf(spec: ServerSpec, absPath: string): string {
  const dot = absPath.lastIndexOf('.');
  return spec.languages[absPath.slice(dot).toLowerCase()] ?? 'plaintext';
}
