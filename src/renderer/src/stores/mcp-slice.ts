/** MCP slice: the open project's servers as main reports them (mcp.status), approve the project file, toggles. */
import { call } from '../rpc';
import type { McpSlice, Slice } from './types';

export const createMcpSlice: Slice<McpSlice> = (set, get) => ({
  mcp: null,
  async loadMcp() {
    const project = get().project;
    if (!project) return set({ mcp: null });
    const r = await call('mcp.status', { projectId: project.id });
    if (!r.ok) return get().showError(r.error);
    set({ mcp: r.value });
  },
  async approveMcp() {
    const project = get().project;
    if (!project) return;
    const r = await call('mcp.approve', { projectId: project.id });
    if (!r.ok) return get().showError(r.error);
    set({ mcp: r.value });
  },
  async toggleMcp(server, enabled, tool) {
    const project = get().project;
    if (!project) return;
    const r = await call('mcp.toggle', { projectId: project.id, server, enabled, ...(tool ? { tool } : {}) });
    if (!r.ok) return get().showError(r.error);
    set({ mcp: r.value });
  },
});
