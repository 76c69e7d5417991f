/**
 * `npm run serve`: the app in a browser. Builds the renderer when its build is missing or stale, opens the same
 * services the desktop app uses, and serves them on 127.0.0.1 (web.ts), printing the one-time URL — and a new one
 * whenever asked while it runs (Enter on its terminal, or `kill -USR2 <pid>`; login-url.ts).
 *
 * Options: `--port N` (default: a random free port), `--data DIR` (default `$LANDFALL_DATA_DIR` or
 * `~/.landfall`), `--no-build` (serve what is in out/renderer). Keys: a browser has no OS secret store to lend us,
 * so each provider's key is the variable its `apiKeyEnv` names in this environment (or one typed in the page, kept
 * in memory until the host stops).
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { createRouter } from './router';
import { environmentSecrets } from './platform';
import { createServices } from './services';
import type { Services } from './services';
import { startWebHost } from './web';
import type { WebHost } from './web';
import { buildRenderer, rendererIsStale } from './renderer-build';
import { howToReissue, reissueLoginUrl } from './login-url';

export interface ServeOptions {
  /** The checkout root (holds src/renderer, out/renderer, resources/). */
  projectRoot: string;
  dataDir: string;
  port?: number;
  /** Build the renderer when stale (default true). */
  build?: boolean;
  /** Where the built renderer lives (default `<projectRoot>/out/renderer`). */
  rendererDir?: string;
}

export interface Served {
  host: WebHost;
  services: Services;
  close(): Promise<void>;
}

/** Starts the web host over fresh services. Throws when the services cannot open (reported by main()). */
export async function serve(options: ServeOptions): Promise<Served> {
  const rendererDir = options.rendererDir ?? resolve(options.projectRoot, 'out/renderer');
  if (options.build !== false && (await rendererIsStale(options.projectRoot, rendererDir))) {
    await buildRenderer(options.projectRoot, rendererDir);
  }
  const created = await createServices({
    dataDir: options.dataDir,
    snapshotWorker: true,
    platform: {
      transport: 'web',
      version: process.env['npm_package_version'] ?? '0.1.0',
      secrets: environmentSecrets(),
      resourcesDir: resolve(options.projectRoot, 'resources'),
    },
  });
  if (!created.ok) throw new Error(`${created.error.message} ${created.error.hint}`);
  const services = created.value;
  const router = createRouter(services.handlers, (name, error) => console.error(`[landfall] ${name} failed:`, error));
  const host = await startWebHost({
    router,
    subscribe: services.subscribe,
    staticDir: rendererDir,
    ...(options.port ? { port: options.port } : {}),
  });
  return {
    host,
    services,
    async close() {
      await host.close();
      await services.close();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, data: { type: 'string' }, 'no-build': { type: 'boolean' } },
  });
  const port = values.port ? Number(values.port) : undefined;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    console.error(`--port must be a port number, got ${values.port}`);
    process.exit(2);
  }
  const dataDir = resolve(values.data ?? process.env['LANDFALL_DATA_DIR'] ?? resolve(homedir(), '.landfall'));
  const served = await serve({
    projectRoot: process.cwd(),
    dataDir,
    ...(port ? { port } : {}),
    build: !values['no-build'],
  });
  console.log(
    `Landfall is serving on 127.0.0.1 only. Open this URL (its token works once; the browser then stays signed in until the host stops):\n\n  ${served.host.url}\n`,
  );
  console.log(`Data folder: ${dataDir}. Press Ctrl+C to stop.`);
  console.log(howToReissue(process.pid));
  const stopReissue = reissueLoginUrl(
    process.stdin,
    () => served.host.issueUrl(),
    (text) => console.log(text),
  );
  const stop = (): void => {
    stopReissue();
    void served.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
