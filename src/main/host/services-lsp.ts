/**
 * Language servers for the app: one LspManager per open project (DESIGN §7), created on the first tool call that
 * needs diagnostics, shut down with the services. The core asks per project; the manager's hook is keyed by the
 * project id, so every session of a project shares its servers.
 *
 * The user's `lsp` settings (servers turned off or added) are read through `lspSettings` each time a manager is
 * created. When saved settings change the `lsp` entry, the next tool call of a project shuts that project's
 * manager down (its servers get LSP shutdown/exit) and starts a new one from the new entry, so a server turned off
 * stops being used and an added one is used without restarting the app.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DiagnosticsHook } from '../lsp';
import type { Project } from '../../shared/model';
import { LspManager } from '../lsp';
import type { LspSettings } from '../lsp';

export interface AppLanguageServers {
  /** The core's `diagnostics` option: the hook of the project's manager (undefined when it cannot start). */
  hookFor(project: Project): DiagnosticsHook | undefined;
  shutdown(): Promise<void>;
}

/**
 * Creates the per-project managers lazily. `lspSettings` returns the current settings' `lsp` entry (undefined:
 * the built-in servers). Malformed settings cannot reach here (settings are validated on load and save); should
 * they, the project runs without diagnostics rather than failing the tool call.
 */
export function appLanguageServers(lspSettings: () => LspSettings | undefined = () => undefined): AppLanguageServers {
  const managers = new Map<string, { manager: LspManager; settings: LspSettings | undefined }>();
  const retired = new Set<Promise<void>>();
  return {
    hookFor(project) {
      const settings = lspSettings();
      let entry = managers.get(project.id);
      if (entry && !isDeepStrictEqual(entry.settings, settings)) {
        const done = entry.manager.shutdown().finally(() => retired.delete(done));
        retired.add(done);
        managers.delete(project.id);
        entry = undefined;
      }
      if (!entry) {
        const created = LspManager.create({ root: project.root, ...(settings ? { settings } : {}) });
        if (!created.ok) return undefined;
        entry = { manager: created.value, settings: structuredClone(settings) };
        managers.set(project.id, entry);
      }
      return entry.manager.hook(project.id);
    },
    async shutdown() {
      await Promise.all([...[...managers.values()].map((e) => e.manager.shutdown()), ...retired]);
      managers.clear();
    },
  };
}
