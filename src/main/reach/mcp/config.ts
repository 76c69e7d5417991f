/**
 * MCP server entries: from settings.json (`mcp.servers`, the user's own, global) and from a project file
 * (`.landfall/mcp.json`, else the common `.mcp.json`, in the `{ "mcpServers": { name: entry } }` shape other
 * agents use). An entry is a stdio server (command, args, env — the env holds ONLY what the entry names, laid
 * over the scrubbed environment, src/main/proc/child-env.ts) or an HTTP server (url, headers: Streamable HTTP,
 * with SSE as the fallback for old servers). `enabled: false` turns a server off; `disabledTools` turns tools off.
 *
 * Server names become tool-name prefixes (`<server>_<tool>`), so they are limited to letters, digits, `-`.
 */
import { z } from 'zod';

const name = z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'letters, digits and - only (at most 40)');

const common = {
  enabled: z.boolean().optional(),
  disabledTools: z.array(z.string()).optional(),
  /** Seconds to wait for the server to start and list its tools, and for each answer (default 20, 60). */
  startTimeout: z.number().positive().max(300).optional(),
  callTimeout: z.number().positive().max(3600).optional(),
};

export const stdioEntrySchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  ...common,
});

export const httpEntrySchema = z.object({
  type: z.enum(['http', 'sse']),
  url: z.string().url(),
  headers: z.record(z.string(), z.string()).default({}),
  ...common,
});

export const mcpEntrySchema = z.union([httpEntrySchema, stdioEntrySchema]);
export type McpEntry = z.infer<typeof mcpEntrySchema>;

/** settings.json `mcp`: the user's own servers by name. */
export const mcpSettingsSchema = z.object({ servers: z.record(name, mcpEntrySchema).default({}) });
export type McpSettings = z.infer<typeof mcpSettingsSchema>;

/** A project's MCP file. */
export const projectMcpFileSchema = z.object({ mcpServers: z.record(name, mcpEntrySchema) });

/** One server to run: its name, where it was declared, and the entry. */
export interface McpServerConfig {
  name: string;
  origin: 'settings' | 'project';
  entry: McpEntry;
}
