/**
 * API keys kept with Electron's safeStorage (DESIGN §8: never in plain files). Keys are encrypted by the OS secret
 * store (Keychain, DPAPI, libsecret/kwallet) into `keys.json` in the user-data folder. Where the OS offers no real
 * store (Linux `basic_text`), nothing is written: the key lives in memory for this run and the settings screen
 * warns, so a key is never left on disk in a form anyone can read. A key read here goes to the provider client only
 * (host/services-settings.ts `hostKeyLookup`), never into process.env, so no child process inherits it.
 */
import { safeStorage } from 'electron';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write';
import type { SecretStore } from '../host/platform';

/** True when safeStorage encrypts with a real OS secret store. */
function protectedStore(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend() !== 'basic_text';
  return true;
}

/** Opens the key file under `userData`. */
export function createSafeStorageSecrets(userData: string): SecretStore {
  const file = join(userData, 'keys.json');
  const memory = new Map<string, string>();
  let saved: Record<string, string> = {};
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    saved = {};
  }
  return {
    kind: () => (protectedStore() ? 'os-secret-store' : 'unprotected'),
    get(id) {
      if (memory.has(id)) return memory.get(id);
      const blob = saved[id];
      if (!blob || !protectedStore()) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(blob, 'base64'));
      } catch {
        return undefined;
      }
    },
    async set(id, key) {
      if (key === null) {
        memory.delete(id);
        delete saved[id];
      } else if (protectedStore()) {
        saved[id] = safeStorage.encryptString(key).toString('base64');
        memory.delete(id);
      } else {
        memory.set(id, key);
        return;
      }
      await writeFileAtomic(file, Buffer.from(JSON.stringify(saved), 'utf8'), { mode: 0o600 });
    },
  };
}
