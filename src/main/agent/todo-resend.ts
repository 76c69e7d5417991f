/**
 * The todo list as a message to re-send after a compaction (DESIGN §11: instructions, mode and todo list are state
 * re-sent from the store, never left to a summary). The compaction (agent/context/, built beside this) puts the
 * message returned here right after its summary; the list comes from the store (src/shared/todo.ts todosOf), so it
 * is the list in force at the revert boundary, not whatever the summary remembered.
 */
import type { ModelMessage } from 'ai';
import type { MessageWithParts } from '../../shared/model';
import type { RevertState } from '../../shared/model';
import { todoText, todosOf } from '../../shared/todo';

/** The first line of the re-sent message, so a reader (and a test) can tell it from the user's own words. */
export const TODO_RESEND_HEADER = 'Your todo list, kept across the compaction (update it with todowrite):';

/**
 * A user message holding the session's todo list as text (`TODO_RESEND_HEADER`, then todoText's lines), or
 * undefined when the list is empty (nothing to re-send). `messages` are the session's stored messages in order.
 */
export function todoResendMessage(messages: MessageWithParts[], revert?: RevertState): ModelMessage | undefined {
  const todos = todosOf(messages, revert);
  if (todos.length === 0) return undefined;
  return { role: 'user', content: [{ type: 'text', text: `${TODO_RESEND_HEADER}\n${todoText(todos)}` }] };
}
