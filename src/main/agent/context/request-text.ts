/**
 * The text of a request's pieces as the model reads them, for token estimates: a message's text parts, a tool
 * call's name and input JSON, a tool result's output value; the tool list as its JSON. Works on the AI SDK's
 * provider-level prompt (LanguageModelV3Message), which is what every provider turns into its wire format.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { estimateTokens } from './tokens';

/** Marks a change notice message (baseline.ts) so the ledger counts it as instructions, not history. */
export const NOTICE_TAG = '<context-notice>';

function partText(p: unknown): string {
  if (typeof p !== 'object' || p === null) return '';
  const part = p as { type?: string; text?: string; toolName?: string; input?: unknown; output?: unknown };
  if (part.type === 'text' || part.type === 'reasoning') return part.text ?? '';
  if (part.type === 'tool-call') return `${part.toolName ?? ''} ${JSON.stringify(part.input ?? {})}`;
  if (part.type === 'tool-result') {
    const out = part.output as { type?: string; value?: unknown; reason?: string } | undefined;
    if (!out) return '';
    if (typeof out.value === 'string') return out.value;
    return out.value === undefined ? (out.reason ?? '') : JSON.stringify(out.value);
  }
  return '';
}

/** All the text of a message (string content, or its parts joined with newlines). */
export function messageText(m: unknown): string {
  const content = (m as { content?: unknown } | null)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map(partText).join('\n');
}

/** The message's role ('system' | 'user' | 'assistant' | 'tool'), or '' for anything else. */
export function messageRole(m: unknown): string {
  const role = (m as { role?: unknown } | null)?.role;
  return typeof role === 'string' ? role : '';
}

/** True when the message is a change notice (a user message whose text starts with NOTICE_TAG). */
export function isNotice(m: unknown): boolean {
  return messageRole(m) === 'user' && messageText(m).startsWith(NOTICE_TAG);
}

/** Token estimate of one piece of a request (the ledger's `tokensOf`). */
export function pieceTokens(kind: 'system' | 'tools' | 'message', value: unknown): number {
  if (kind === 'system') return estimateTokens(typeof value === 'string' ? value : '');
  if (kind === 'tools') return Array.isArray(value) && value.length === 0 ? 0 : estimateTokens(JSON.stringify(value));
  return estimateTokens(messageText(value as LanguageModelV3Message));
}
