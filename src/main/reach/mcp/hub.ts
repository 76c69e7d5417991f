/**
 * The MCP servers of each open project: the user's servers from settings (`mcp.servers`) plus the project's own
 * (project.ts: only when trusted and approved), started on the first turn of the project, in parallel, each
 * within its start timeout — a turn waits at most that long, and a failed server is left out of the tools.
 * Stopped with the project (closeProject) and all at once on close(); stdio servers go with their whole process
 * group.
 *
 * `status(root)` is what Settings shows: every server with its state (connected / failed with the reason /
 * disabled, and why for a project server that is not trusted), its tools, and the tokens its tool definitions
 * cost in every request (the estimate of name + description + input schema by the counter the agent passes:
 * agent/context/tokens.ts, o200k).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../../tools/types';
import type { TrustStore } from '../trust/store';
import type { McpServerConfig, McpSettings } from './config';
import { McpConnection } from './connection';
import type { McpState } from './connection';
import { projectMcp } from './project';
import { mcpTool, mcpToolName } from './tools';

/** One server as Settings shows it. */
export interface McpServerStatus {
  name: string;
  origin: 'settings' | 'project';
  state: McpState | 'untrusted';
  reason?: string;
  tools: { name: string; enabled: boolean; tokens: number }[];
  /** Tokens of the enabled tools' definitions, sent in every request. */
  tokens: number;
}

interface ProjectServers {
  /** What the servers were started from (settings entries, project file hash and approval): a change restarts them. */
  key: string;
  connections: McpConnection[];
  started: Promise<void>;
  untrusted: McpServerConfig[];
  problem?: string;
}

/** Counts the tokens of a text (the agent passes its one estimator, agent/context/tokens.ts). */
export type TokenCounter = (text: string) => number;

/** Tokens a tool definition costs in a request (name, description, JSON input schema), by `count`. */
export function toolTokens(tool: Tool, name: string, count: TokenCounter): number {
  return count(JSON.stringify({ name, description: tool.description ?? '', parameters: tool.inputSchema }));
}

export class McpHub {
  private readonly projects = new Map<string, ProjectServers>();
  private readonly changeListeners = new Set<(root: string, server: string) => void>();

  /** Called when a server's tool list changed (tools/list_changed followed); the next turn offers the new list. */
  onToolsChanged(listener: (root: string, server: string) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  constructor(
    private readonly settings: () => McpSettings | undefined,
    private readonly trust: TrustStore,
    private readonly count: TokenCounter,
    private readonly report: (root: string, text: string) => void = (_root, text) => console.warn(text),
  ) {}

  /** The project's servers, (re)started when the settings entries, the project file or its approval changed. */
  private async open(root: string): Promise<ProjectServers> {
    const servers = this.settings()?.servers ?? {};
    const project = projectMcp(root, this.trust);
    const key = JSON.stringify([servers, project?.sha256, project?.approved]);
    const known = this.projects.get(root);
    if (known && known.key === key) return known;
    if (known) await this.closeProject(root);
    const own = Object.entries(servers).map(([name, entry]): McpServerConfig => ({ name, origin: 'settings', entry }));
    const fromProject = project && project.approved ? project.servers : [];
    const connections = [...own, ...fromProject.filter((s) => !own.some((o) => o.name === s.name))].map(
      (config) =>
        new McpConnection(
          config,
          root,
          (text) => this.report(root, text),
          () => this.changeListeners.forEach((l) => l(root, config.name)),
        ),
    );
    const fresh: ProjectServers = {
      key,
      connections,
      started: Promise.all(connections.map((c) => c.start())).then(() => undefined),
      untrusted: project && !project.approved ? project.servers : [],
      ...(project?.problem ? { problem: project.problem } : {}),
    };
    this.projects.set(root, fresh);
    return fresh;
  }

  /** The tools of the project's connected servers (starting them on first use), minus the tools turned off. */
  async toolsFor(root: string): Promise<ToolDefinition[]> {
    const p = await this.open(root);
    await p.started;
    return p.connections.flatMap((c) =>
      c.state === 'connected' || c.state === 'failed'
        ? c.tools
            .filter((t) => !(c.config.entry.disabledTools ?? []).includes(t.name))
            .map((t) => mcpTool(c, t) as unknown as ToolDefinition)
        : [],
    );
  }

  /** Every server of the project as Settings shows it (module docstring); starts them if not started. */
  async status(root: string): Promise<McpServerStatus[]> {
    const p = await this.open(root);
    await p.started;
    const live = p.connections.map((c): McpServerStatus => {
      const off = new Set(c.config.entry.disabledTools ?? []);
      const tools = c.tools.map((t) => {
        const name = mcpToolName(c.config.name, t.name);
        return { name, enabled: !off.has(t.name), tokens: toolTokens(t, name, this.count) };
      });
      return {
        name: c.config.name,
        origin: c.config.origin,
        state: c.state,
        ...(c.reason ? { reason: c.reason } : {}),
        tools,
        tokens: c.state === 'connected' ? tools.filter((t) => t.enabled).reduce((n, t) => n + t.tokens, 0) : 0,
      };
    });
    const untrusted = p.untrusted.map((s): McpServerStatus => ({
      name: s.name,
      origin: 'project',
      state: 'untrusted',
      reason: 'declared by the project; it runs only after you trust the folder and approve this file',
      tools: [],
      tokens: 0,
    }));
    return [...live, ...untrusted];
  }

  /** Connections of a project (tests: pids, states). */
  connections(root: string): McpConnection[] {
    return this.projects.get(root)?.connections ?? [];
  }

  /** Stop a project's servers (the project closed, or its settings or trust changed: next use starts afresh). */
  async closeProject(root: string): Promise<void> {
    const p = this.projects.get(root);
    this.projects.delete(root);
    if (!p) return;
    await p.started;
    await Promise.all(p.connections.map((c) => c.close()));
  }

  /** Stop every server. */
  async close(): Promise<void> {
    await Promise.all([...this.projects.keys()].map((r) => this.closeProject(r)));
  }
}
