/** The todo list beside the conversation: the model's plan, live (src/shared/todo.ts: follows revert / unrevert). */
import type React from 'react';
import type { TodoItem } from '../../../../shared/todo';
import './talk.css';

const MARK: Record<TodoItem['status'], string> = { pending: '○', in_progress: '◐', done: '●', cancelled: '⊘' };
const WORD: Record<TodoItem['status'], string> = {
  pending: 'pending',
  in_progress: 'in progress',
  done: 'done',
  cancelled: 'cancelled',
};

export function TodoPanel({ todos }: { todos: TodoItem[] }): React.JSX.Element | null {
  if (todos.length === 0) return null;
  const done = todos.filter((t) => t.status === 'done').length;
  return (
    <aside className="todo-panel" data-testid="todo-panel" aria-label="Todo list">
      <h3>
        Todo <span className="todo-count">{`${done}/${todos.length}`}</span>
      </h3>
      <ul>
        {todos.map((t, i) => (
          <li key={`${i}:${t.content}`} className={`todo ${t.status}`} data-testid="todo-item" data-status={t.status}>
            <span className="todo-mark" aria-label={WORD[t.status]}>
              {MARK[t.status]}
            </span>
            <span className="todo-content">{t.content}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
