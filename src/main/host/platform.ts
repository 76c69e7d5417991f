/**
 * What a transport supplies to the app's services (services.ts): its name and version, the native folder dialog
 * where there is one, the secret store for API keys, and the folder of bundled resources. Electron passes the OS
 * secret store (src/main/electron/secrets.ts); the web host has neither a dialog nor an OS store.
 */

/** Where API keys live. `kind` tells the settings screen what to say about it. */
export interface SecretStore {
  kind(): 'os-secret-store' | 'unprotected' | 'environment';
  get(providerId: string): string | undefined;
  /** Stores (or with null removes) the key of a provider. */
  set(providerId: string, key: string | null): Promise<void>;
}

/** What the transport supplies. */
export interface Platform {
  transport: 'electron' | 'web';
  version: string;
  /** The native open-folder dialog (Electron); absent in the web host. */
  pickFolder?: () => Promise<string | null>;
  secrets: SecretStore;
  /** Folder holding `sample/` (project + recording). */
  resourcesDir: string;
}

/**
 * The web host's store: a browser lends no OS secret store, so a key typed in the page lives in this process's
 * memory for this run only. Otherwise each provider's key is the variable its `apiKeyEnv` names (hostKeyLookup in
 * services-settings.ts).
 */
export function environmentSecrets(): SecretStore {
  const memory = new Map<string, string>();
  return {
    kind: () => 'environment',
    get: (id) => memory.get(id),
    set: async (id, key) => void (key === null ? memory.delete(id) : memory.set(id, key)),
  };
}
