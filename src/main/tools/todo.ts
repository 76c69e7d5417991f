/**
 * The todo tools: `todowrite` replaces the session's list (content + status, at most one entry in progress) and
 * answers it as text; `todoread` answers the list in force. The list is session state in the store — the input of
 * the last completed todowrite part before the revert boundary (src/shared/todo.ts) — so the chat's panel, the
 * model, a revert / unrevert and a compaction read the same list. The tool context's `todos` reads it.
 */
import { z } from 'zod';
import { fail } from '../../shared/errors';
import { TODO_STATUSES, todoText } from '../../shared/todo';
import { toolProse } from './prose';
import type { ToolContext, ToolDefinition, ToolOutcome } from './types';
import { toolFailure } from './types';

const todoItem = z.object({
  content: z.string().min(1).max(500).describe('What to do, in a few words.'),
  status: z.enum(TODO_STATUSES).describe('pending, in_progress (at most one), done or cancelled.'),
});

const todoWriteInput = z
  .object({ todos: z.array(todoItem).max(50).describe('The whole list, in order.') })
  .refine((v) => v.todos.filter((t) => t.status === 'in_progress').length <= 1, {
    message: 'At most one entry may be in_progress at a time.',
  });
export type TodoWriteInput = z.infer<typeof todoWriteInput>;

function executeTodoWrite(input: TodoWriteInput): Promise<ToolOutcome> {
  const open = input.todos.filter((t) => t.status === 'pending' || t.status === 'in_progress').length;
  return Promise.resolve({
    ok: true,
    title: `todo (${open} open)`,
    output: todoText(input.todos),
    metadata: { todos: input.todos },
  });
}

function executeTodoRead(_input: Record<string, never>, ctx: ToolContext): Promise<ToolOutcome> {
  if (!ctx.todos)
    return Promise.resolve(
      toolFailure(fail('unavailable', 'This session keeps no todo list.', 'Go on without it.').error),
    );
  const todos = ctx.todos();
  return Promise.resolve({ ok: true, title: 'todo', output: todoText(todos), metadata: { todos } });
}

export const todoWriteTool: ToolDefinition<TodoWriteInput> = {
  name: 'todowrite',
  description: toolProse(new URL('./todowrite.md', import.meta.url)),
  input: todoWriteInput,
  execute: executeTodoWrite,
};

export const todoReadTool: ToolDefinition<Record<string, never>> = {
  name: 'todoread',
  description: toolProse(new URL('./todoread.md', import.meta.url)),
  input: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  execute: executeTodoRead,
};
