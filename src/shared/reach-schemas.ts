/**
 * Contract shapes for reaching past the project (src/main/reach): trusted folders. A folder is trusted once by
 * the user; until then its own executables (node_modules/.bin language servers, its own TypeScript, MCP servers
 * its files declare) do not run and Landfall uses its bundled servers or none.
 */
import { z } from 'zod';

/** One trusted folder: real absolute path, and when (ms since epoch) the user trusted it. */
export const TrustedFolderSchema = z.object({ path: z.string(), trustedAt: z.number() });

/** The trusted folders, and why trust.json could not be read when it could not (then nothing is trusted). */
export const TrustViewSchema = z.object({
  folders: z.array(TrustedFolderSchema),
  problem: z.string().optional(),
});

/** Trust (true) or revoke (false) one folder; the answer is the list after the change. */
export const TrustSetInputSchema = z.object({ path: z.string().min(1).max(4096), trusted: z.boolean() });

export type TrustedFolderView = z.infer<typeof TrustedFolderSchema>;
export type TrustView = z.infer<typeof TrustViewSchema>;

/** One MCP server as Settings shows it: state (and why), its tools, the tokens their definitions cost per request. */
export const McpServerStatusSchema = z.object({
  name: z.string(),
  origin: z.enum(['settings', 'project']),
  state: z.enum(['connecting', 'connected', 'failed', 'disabled', 'untrusted']),
  reason: z.string().optional(),
  tools: z.array(z.object({ name: z.string(), enabled: z.boolean(), tokens: z.number() })),
  tokens: z.number(),
});

/** A project's MCP servers, and its MCP file (`.landfall/mcp.json` or `.mcp.json`) when it has one. */
export const McpViewSchema = z.object({
  servers: z.array(McpServerStatusSchema),
  projectFile: z
    .object({ path: z.string(), approved: z.boolean(), folderTrusted: z.boolean(), problem: z.string().optional() })
    .optional(),
});

/** Turn a server (no `tool`) or one of its tools on or off; only servers from settings can be changed here. */
export const McpToggleInputSchema = z.object({
  projectId: z.string().min(1).max(200),
  server: z.string().min(1).max(40),
  tool: z.string().min(1).max(200).optional(),
  enabled: z.boolean(),
});

export type McpView = z.infer<typeof McpViewSchema>;
export type McpServerStatusView = z.infer<typeof McpServerStatusSchema>;
