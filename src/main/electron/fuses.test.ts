/**
 * The packaged app's fuses: electron-builder.yml read by electron-builder's own loader and checked against its own
 * schema (so a misspelt key fails here, not silently at build time), then each fuse a packaged app should have.
 */
import { describe, expect, test } from 'vitest';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';

describe('electron-builder.yml', () => {
  test('sets every fuse a packaged app should have', async () => {
    const config = await getConfig(process.cwd(), 'electron-builder.yml', null);
    const debug = { isEnabled: false, add: () => undefined, save: async () => undefined } as unknown as Parameters<
      typeof validateConfiguration
    >[1];
    await expect(validateConfiguration(config, debug)).resolves.toBeUndefined();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    // Integrity validation means nothing when the hash is not embedded, and the app must be in an asar at all.
    expect(config.asar ?? true).not.toBe(false);
    expect((config.asar as { disableIntegrity?: boolean } | undefined)?.disableIntegrity).not.toBe(true);
  });
});
