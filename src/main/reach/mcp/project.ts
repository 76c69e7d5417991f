/**
 * A project's own MCP servers: `.landfall/mcp.json`, else `.mcp.json`, at the project root. They are programs
 * the project ships or names, so they start only when the user trusted the project folder AND approved this very
 * file content (its sha256 is remembered in trust.json; an edited file is asked again). Until then nothing of it
 * runs and the status says why.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { TrustStore } from '../trust/store';
import { projectMcpFileSchema } from './config';
import type { McpServerConfig } from './config';

export const PROJECT_MCP_FILES = ['.landfall/mcp.json', '.mcp.json'];

/** What the project declares: the file, its content hash, its servers (or why it cannot be read), and trust. */
export interface ProjectMcp {
  file: string;
  sha256: string;
  servers: McpServerConfig[];
  /** Why the file cannot be used (bad JSON, bad fields), or undefined. */
  problem?: string;
  /** Folder trusted and this content approved. */
  approved: boolean;
}

/** Read the project's MCP file (module docstring); undefined when it has none. Never throws. */
export function projectMcp(root: string, trust: TrustStore): ProjectMcp | undefined {
  for (const rel of PROJECT_MCP_FILES) {
    const file = path.join(root, rel);
    let raw: Buffer;
    try {
      raw = readFileSync(file);
    } catch {
      continue;
    }
    const sha256 = createHash('sha256').update(raw).digest('hex');
    const approved = trust.isTrusted(root) && trust.fileApproved(file, sha256);
    let servers: McpServerConfig[] = [];
    let problem: string | undefined;
    try {
      const parsed = projectMcpFileSchema.parse(JSON.parse(raw.toString('utf8')));
      servers = Object.entries(parsed.mcpServers).map(([name, entry]) => ({ name, origin: 'project', entry }));
    } catch (e) {
      problem = `${rel} cannot be used: ${(e as Error).message.slice(0, 300)}`;
    }
    return { file, sha256, servers, approved, ...(problem ? { problem } : {}) };
  }
  return undefined;
}
