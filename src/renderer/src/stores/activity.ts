/**
 * What the open session is doing right now, read out of its messages (pure; the chat's live line renders it):
 *   - a permission question is open → "waiting for your answer";
 *   - a tool part whose bytes are on disk and waits for language servers (metadata.phase = 'diagnostics',
 *     set by the tool runner) → "waiting for typescript diagnostics";
 *   - a tool part pending or running → "calling <tool>";
 *   - anything else while busy → "thinking" (the model is answering).
 * `since` is when that activity began (ms since the epoch): the part's time, or the turn's start.
 */
import type { MessageWithParts, Part } from '../../../shared/contract';

type ToolPart = Extract<Part, { type: 'tool' }>;

export interface Activity {
  kind: 'thinking' | 'calling' | 'diagnostics' | 'asking';
  label: string;
  since: number;
}

/** The servers a tool part waits for (metadata.servers), or [] when it does not wait. */
export function waitingServers(part: ToolPart): string[] {
  const meta = part.metadata ?? {};
  if (part.state !== 'running' || meta['phase'] !== 'diagnostics') return [];
  const servers = meta['servers'];
  return Array.isArray(servers) ? servers.filter((s): s is string => typeof s === 'string') : [];
}

/** The activity of a busy session; `turnStart` is when it went busy (ms). Null when not busy. */
export function activityOf(
  messages: readonly MessageWithParts[],
  busy: boolean,
  asking: boolean,
  turnStart: number,
): Activity | null {
  if (!busy) return null;
  const last = messages[messages.length - 1];
  const parts = last?.role === 'assistant' ? last.parts : [];
  const open = [...parts]
    .reverse()
    .find((p): p is ToolPart => p.type === 'tool' && (p.state === 'running' || p.state === 'pending'));
  if (asking) return { kind: 'asking', label: 'waiting for your answer', since: open?.time ?? turnStart };
  if (open) {
    const servers = waitingServers(open);
    if (servers.length > 0)
      return { kind: 'diagnostics', label: `waiting for ${servers.join(', ')} diagnostics`, since: open.time };
    return { kind: 'calling', label: `calling ${open.tool}`, since: open.time };
  }
  const tail = parts[parts.length - 1];
  return { kind: 'thinking', label: 'thinking', since: Math.max(turnStart, tail?.time ?? 0) };
}

/** Elapsed time for the live line: "4s", "1m 05s". */
export function elapsedText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}
