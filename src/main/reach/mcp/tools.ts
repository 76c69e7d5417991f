/**
 * An MCP server's tools as Landfall tools: named `<server>_<tool>` (so two servers' `search` never clash and
 * permission rules can name a server: `{ permission: 'mcp', pattern: 'github_*', action: 'allow' }`), with the
 * server's JSON Schema as the input schema (zod's fromJSONSchema; an object of anything when the schema cannot be
 * read), run through the same permission gate as every tool (`mcp`, default ask) and the same output cap.
 *
 * What the model reads of a result: text parts as they are; an embedded text resource with its URI; a resource
 * link as its URI. Images, audio and binary resources are not passed on: the output says what was left out (no
 * provider path here takes tool images, and base64 in text would only flood the window).
 */
import { z } from 'zod';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { fail } from '../../../shared/errors';
import type { ToolDefinition, ToolOutcome } from '../../tools/types';
import { toolFailure } from '../../tools/types';
import type { McpConnection } from './connection';

/** The Landfall name of a server's tool. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

function inputSchema(tool: Tool): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(tool.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<
      Record<string, unknown>
    >;
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

/** The text the model reads for a result's content (module docstring). Pure. */
export function resultText(result: CallToolResult): string {
  const out: string[] = [];
  for (const c of result.content ?? []) {
    if (c.type === 'text') out.push(c.text);
    else if (c.type === 'image' || c.type === 'audio')
      out.push(`[${c.type} (${c.mimeType}) left out: Landfall does not pass MCP ${c.type}s to the model]`);
    else if (c.type === 'resource_link') out.push(`[resource ${c.uri}${c.name ? ` (${c.name})` : ''}]`);
    else if (c.type === 'resource') {
      const r = c.resource as { uri: string; text?: string; mimeType?: string };
      out.push(
        typeof r.text === 'string'
          ? `[resource ${r.uri}]\n${r.text}`
          : `[binary resource ${r.uri} (${r.mimeType ?? 'unknown type'}) left out]`,
      );
    }
  }
  if (out.length === 0 && result.structuredContent !== undefined) out.push(JSON.stringify(result.structuredContent));
  return out.join('\n');
}

/** The Landfall tool for one tool of a connected server. */
export function mcpTool(conn: McpConnection, tool: Tool): ToolDefinition<Record<string, unknown>> {
  const name = mcpToolName(conn.config.name, tool.name);
  return {
    name,
    description: `${tool.description ?? tool.title ?? tool.name} (MCP server ${conn.config.name})`,
    input: inputSchema(tool),
    async execute(args, ctx): Promise<ToolOutcome> {
      if (ctx.ask) {
        const answer = await ctx.ask({ tool: name, permission: 'mcp', patterns: [name], title: `${name}` });
        if (!answer.allow)
          return toolFailure(
            fail(
              'permission_denied',
              `${name} is not allowed${answer.reason ? `: ${answer.reason}` : '.'}`,
              'Do without it.',
            ).error,
          );
      }
      let result: CallToolResult;
      try {
        result = await conn.call(tool.name, args, ctx.signal);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        const timedOut = /timed out|did not answer/i.test(message);
        return toolFailure(
          fail(timedOut ? 'timeout' : 'unavailable', `${name} failed: ${message}`, 'Try again later, or do without it.')
            .error,
        );
      }
      // long outputs are cut by the one output cap every tool's output goes through (agent/context/tool-output.ts)
      const text = resultText(result);
      if (result.isError)
        return {
          ok: false,
          error: {
            code: 'tool_error',
            message: `${name} answered with an error`,
            hint: 'Read it and adjust the call.',
          },
          output: `Error (tool_error): ${text}`,
        };
      return {
        ok: true,
        title: name,
        output: text,
        metadata: {
          server: conn.config.name,
          tool: tool.name,
        },
      };
    },
  };
}
