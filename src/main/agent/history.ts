/**
 * Rebuild the model's conversation (AI SDK ModelMessage[]) from stored messages and parts, so a turn always sees
 * exactly what the store holds (after a revert's cleanup, an import, or a restart).
 *
 * An assistant message is split at its step-start parts: each step becomes one assistant message (its text and
 * tool calls) followed by one tool message with the results. A tool part that never completed (error, including
 * `interrupted` and `truncated`) is given back as an error result, so every call has a result.
 */
import type { ModelMessage, ToolResultPart } from 'ai';
import type { MessageWithParts, Part } from '../../shared/model';

type ToolPart = Extract<Part, { type: 'tool' }>;

/** The text a tool part gives back to the model. */
export function resultText(part: ToolPart): string {
  if (part.output !== undefined) return part.output;
  if (part.error) return `Error (${part.error.code}): ${part.error.message}`;
  return 'Error (interrupted): the call did not finish.';
}

function stepMessages(parts: Part[]): ModelMessage[] {
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
  const tools = parts.filter((p): p is ToolPart => p.type === 'tool');
  if (text === '' && tools.length === 0) return [];
  const content: Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string> = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const t of tools) {
    const input = typeof t.input === 'object' && t.input !== null ? t.input : {};
    content.push({ type: 'tool-call', toolCallId: t.callId, toolName: t.tool, input });
  }
  const out: ModelMessage[] = [{ role: 'assistant', content }];
  if (tools.length > 0) {
    const results: ToolResultPart[] = tools.map((t) => ({
      type: 'tool-result',
      toolCallId: t.callId,
      toolName: t.tool,
      output:
        t.state === 'completed' ? { type: 'text', value: resultText(t) } : { type: 'error-text', value: resultText(t) },
    }));
    out.push({ role: 'tool', content: results });
  }
  return out;
}

/**
 * ModelMessage[] for the stored messages, in order. `userText(id)` gives a user message's prompt text.
 * `notices` (context/turn-context.ts): change notices by the step-start part they precede; each becomes a user
 * message placed just before that step's messages, where the loop first sent it.
 */
export function buildHistory(
  messages: MessageWithParts[],
  userText: (messageId: string) => string,
  notices?: Map<string, string[]>,
): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      out.push({ role: 'user', content: userText(m.id) });
      continue;
    }
    let step: Part[] = [];
    for (const p of m.parts) {
      if (p.type === 'step-start' && step.length > 0) {
        out.push(...stepMessages(step));
        step = [];
      }
      if (p.type === 'step-start')
        for (const text of notices?.get(p.id) ?? []) out.push({ role: 'user', content: text });
      step.push(p);
    }
    out.push(...stepMessages(step));
  }
  return out;
}
