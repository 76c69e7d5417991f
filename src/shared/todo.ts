/**
 * The todo list of a session (issue: the model keeps its plan as a list the user sees live). It is session state
 * in the store, held as the input of the session's last completed `todowrite` tool part that lies before the
 * revert boundary — so a revert hides a later list and an unrevert brings it back with no copy to keep in step,
 * and the chat, the model and a compaction all read the same list. Shared by main and the renderer (pure).
 */
import type { Part, RevertState } from './model';

/** One entry: what to do and where it stands (at most one `in_progress` at a time). */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'done' | 'cancelled';
}

export const TODO_STATUSES = ['pending', 'in_progress', 'done', 'cancelled'] as const;

/** The parts before the revert boundary, in order (the boundary's message, or from its part on, is hidden). */
function visibleParts(messages: { id: string; parts: Part[] }[], revert: RevertState | undefined): Part[] {
  const out: Part[] = [];
  for (const m of messages) {
    if (revert && m.id === revert.messageId) {
      if (revert.partId === undefined) break;
      for (const p of m.parts) {
        if (p.id === revert.partId) break;
        out.push(p);
      }
      break;
    }
    out.push(...m.parts);
  }
  return out;
}

/** The session's todo list (empty when the model never wrote one). `messages` in order, with their parts. */
export function todosOf(messages: { id: string; parts: Part[] }[], revert?: RevertState): TodoItem[] {
  let found: TodoItem[] = [];
  for (const p of visibleParts(messages, revert)) {
    if (p.type !== 'tool' || p.tool !== 'todowrite' || p.state !== 'completed') continue;
    const todos = (p.input as { todos?: unknown } | null)?.todos;
    if (Array.isArray(todos)) found = todos as TodoItem[];
  }
  return found;
}

const MARK: Record<TodoItem['status'], string> = {
  pending: '[ ]',
  in_progress: '[>]',
  done: '[x]',
  cancelled: '[-]',
};

/**
 * The list as the model reads it (todowrite / todoread results, and the part re-sent after a compaction):
 * one line per entry, `[ ]` pending, `[>]` in progress, `[x]` done, `[-]` cancelled.
 */
export function todoText(todos: TodoItem[]): string {
  if (todos.length === 0) return 'The todo list is empty.';
  const open = todos.filter((t) => t.status === 'pending' || t.status === 'in_progress').length;
  return [`Todo list (${open} of ${todos.length} open):`, ...todos.map((t) => `${MARK[t.status]} ${t.content}`)].join(
    '\n',
  );
}
