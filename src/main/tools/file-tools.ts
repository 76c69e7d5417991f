/** The file tools (read, edit, multiedit, write, list, glob, grep, bash), for the registry to expose. */
import { bashTool } from './bash';
import { editTool } from './edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listTool } from './list';
import { multieditTool } from './multiedit';
import { readTool } from './read';
import type { ToolDefinition } from './types';
import { writeTool } from './write';

export { bashTool, editTool, globTool, grepTool, listTool, multieditTool, readTool, writeTool };

/** Every file tool, in the order a model is shown them. Input types differ, hence the widened element type. */
export const fileTools = [
  readTool,
  editTool,
  multieditTool,
  writeTool,
  listTool,
  globTool,
  grepTool,
  bashTool,
] as unknown as ToolDefinition[];
