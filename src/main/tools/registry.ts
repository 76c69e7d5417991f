/**
 * The tool registry: the tools a session's model may call, by name, and their AI SDK declarations.
 *
 * Tools are declared to the SDK WITHOUT `execute` (agent/stream-step.ts): the loop runs them itself after the
 * step's stream ended, through the permission gate and the stored tool part.
 */
import { tool } from 'ai';
import type { ToolSet } from 'ai';
import type { ToolDefinition } from './types';
import { applyPatchTool } from './apply-patch';
import { fileTools } from './file-tools';
import { questionTool } from './question';
import { todoReadTool, todoWriteTool } from './todo';

/** The tools that talk with the user: question, todowrite, todoread. */
const talkTools = [questionTool, todoWriteTool, todoReadTool] as unknown as ToolDefinition[];

/** Every built-in tool, in the order they are offered to the model (the talking tools last: question, todo). */
export function defaultTools(): ToolDefinition[] {
  return [...fileTools, applyPatchTool as unknown as ToolDefinition, ...talkTools];
}

/** Look a tool up by name in a list. */
export function findTool(tools: ToolDefinition[], name: string): ToolDefinition | undefined {
  return tools.find((t) => t.name === name);
}

/**
 * The SDK's declaration of each tool (description + input schema, no execute). Throws when two tools share a name
 * (a bug in the list: the model would see one schema while findTool runs the other).
 */
export function toSdkTools(tools: ToolDefinition[]): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    if (Object.hasOwn(set, t.name)) throw new Error(`tool ${t.name} is declared twice`);
    set[t.name] = tool({ description: t.description, inputSchema: t.input });
  }
  return set;
}
