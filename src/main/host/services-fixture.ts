/**
 * Test fixture (not used by the app): real services over a fresh temp data folder, with the router the web host
 * and the preload bridge use. Shared by the host's tests so each one does not rebuild the same set-up.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRouter, type Router } from './router';
import { environmentSecrets } from './platform';
import { createServices, type Services } from './services';

/** Services and router over a temp data folder; `close` shuts the services and removes the folder. */
export interface ServicesFixture {
  temp: string;
  dataDir: string;
  services: Services;
  router: Router;
  close(): Promise<void>;
}

/**
 * Creates `<tmp>/landfall-<tag>-*` with `data/settings.json` = `settings` (pretty JSON) when given, then real
 * services (web transport, secrets from the environment, the project's resources/). `languageServers` is passed
 * through (false: no language server is started). Throws when the services fail to start.
 */
export async function servicesFixture(
  tag: string,
  options: { settings?: unknown; languageServers?: boolean } = {},
): Promise<ServicesFixture> {
  const temp = await mkdtemp(join(tmpdir(), `landfall-${tag}-`));
  const dataDir = join(temp, 'data');
  await mkdir(dataDir, { recursive: true });
  if (options.settings !== undefined)
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify(options.settings, null, 2));
  const created = await createServices({
    dataDir,
    platform: {
      transport: 'web',
      version: 'test',
      secrets: environmentSecrets(),
      resourcesDir: resolve(process.cwd(), 'resources'),
    },
    ...(options.languageServers === undefined ? {} : { languageServers: options.languageServers }),
  });
  if (!created.ok) throw new Error(created.error.message);
  const services = created.value;
  return {
    temp,
    dataDir,
    services,
    router: createRouter(services.handlers),
    async close() {
      await services.close();
      await rm(temp, { recursive: true, force: true });
    },
  };
}
