/**
 * The `mcp.*` calls: a project's MCP servers as Settings shows them (hub.ts status, plus the project's MCP file
 * and whether it is approved), approving that file as it is now (only in a trusted folder: the file names
 * programs the project ships), and turning a server or one of its tools on or off (servers from settings only;
 * a project's own servers are changed in its file). Errors: `invalid_input` (unknown project or server, a
 * project server, no file, folder not trusted).
 */
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { McpView } from '../../shared/reach-schemas';
import type { AgentService } from '../agent/service';
import { projectMcp } from '../reach/mcp/project';

function rootOf(svc: AgentService, projectId: string): Result<string> {
  const project = svc.store.getProject(projectId);
  if (!project) return fail('invalid_input', `No project ${projectId}.`, 'Open the project first.');
  return ok(project.root);
}

/** The project's servers and MCP file. */
export async function mcpView(svc: AgentService, projectId: string): Promise<Result<McpView>> {
  const root = rootOf(svc, projectId);
  if (!root.ok) return root;
  const servers = await svc.mcp.status(root.value);
  const file = projectMcp(root.value, svc.trust);
  return ok({
    servers,
    ...(file
      ? {
          projectFile: {
            path: file.file,
            approved: file.approved,
            folderTrusted: svc.trust.isTrusted(root.value),
            ...(file.problem ? { problem: file.problem } : {}),
          },
        }
      : {}),
  });
}

/** Approve the project's MCP file as it is now. */
export async function approveProjectMcp(svc: AgentService, projectId: string): Promise<Result<McpView>> {
  const root = rootOf(svc, projectId);
  if (!root.ok) return root;
  const file = projectMcp(root.value, svc.trust);
  if (!file) return fail('invalid_input', 'This project has no MCP file.', 'Add .landfall/mcp.json or .mcp.json.');
  if (!svc.trust.isTrusted(root.value))
    return fail('invalid_input', `${root.value} is not trusted.`, 'Trust the folder first, then approve its file.');
  await svc.trust.approveFile(file.file, file.sha256);
  return mcpView(svc, projectId);
}

/** Turn a settings server, or one of its tools, on or off (saved in settings.json). */
export async function toggleMcp(
  svc: AgentService,
  input: { projectId: string; server: string; tool?: string; enabled: boolean },
): Promise<Result<McpView>> {
  const settings = svc.getSettings();
  const entry = settings.mcp?.servers[input.server];
  if (!entry)
    return fail(
      'invalid_input',
      `${input.server} is not a server from your settings.`,
      "A project's own server is turned off in its MCP file.",
    );
  const off = new Set(entry.disabledTools ?? []);
  if (input.tool !== undefined) {
    if (input.enabled) off.delete(input.tool);
    else off.add(input.tool);
  }
  const changed =
    input.tool === undefined ? { ...entry, enabled: input.enabled } : { ...entry, disabledTools: [...off].sort() };
  const saved = await svc.saveSettings({
    ...settings,
    mcp: { servers: { ...settings.mcp?.servers, [input.server]: changed } },
  });
  if (!saved.ok) return saved;
  return mcpView(svc, input.projectId);
}
