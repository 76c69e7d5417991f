/**
 * Language servers for the app: one LspManager per open project (DESIGN §7), created on the first tool call that
 * needs diagnostics, shut down with the services. The core asks per project; the manager's hook is keyed by the
 * project id, so every session of a project shares its servers.
 */
import type { DiagnosticsHook } from '../tools/types';
import type { Project } from '../../shared/model';
import { LspManager } from '../lsp';

export interface AppLanguageServers {
  /** The core's `diagnostics` option: the hook of the project's manager (undefined when it cannot start). */
  hookFor(project: Project): DiagnosticsHook | undefined;
  shutdown(): Promise<void>;
}

/** Creates the per-project managers lazily. */
export function appLanguageServers(): AppLanguageServers {
  const managers = new Map<string, LspManager>();
  return {
    hookFor(project) {
      let m = managers.get(project.id);
      if (!m) {
        const created = LspManager.create({ root: project.root });
        if (!created.ok) return undefined;
        m = created.value;
        managers.set(project.id, m);
      }
      return m.hook(project.id);
    },
    async shutdown() {
      await Promise.all([...managers.values()].map((m) => m.shutdown()));
      managers.clear();
    },
  };
}
