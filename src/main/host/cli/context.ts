/**
 * `landfall sessions context ID [--step N] [--json]`: what the model was told in a session, from the request
 * ledger — one request (default the last) exactly as it was sent, its tokens by category, the model's window, the
 * tokens in use, what changed against the request before it, and the instruction files the baseline loaded (size,
 * and what the per-file cap cut). `--json` prints the contract call's answer (`context.get`) as it is.
 */
import type { ContextStep, ContextView } from '../../../shared/context-schemas';
import { messageRole, messageText } from '../../agent/context/request-text';

const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

function header(s: ContextStep, sessionId: string): string[] {
  const w = s.window;
  const source = w.source === 'fallback' ? 'fallback: no window is known for this model' : `from ${w.source}`;
  const usage = s.usage
    ? `provider reported: input ${s.usage.input ?? '-'} (cached ${s.usage.cachedInput ?? '-'}), output ${s.usage.output ?? '-'}`
    : 'provider reported no usage: estimate';
  return [
    `session ${sessionId} — request ${s.step} of ${s.steps} (step ${s.turnStep} of message ${s.messageId}, ${s.model}, ${new Date(s.time).toISOString()})`,
    `window: ${n(w.tokens)} tokens (${source})`,
    `in use: ${n(s.inUse)} tokens, ${pct(s.inUse / w.tokens)} of the window (${usage})`,
  ];
}

function categories(s: ContextStep): string[] {
  const t = s.tokens;
  const rows: [string, number][] = [
    ['system', t.system],
    ['instructions', t.instructions],
    ['tools', t.tools],
    ['history', t.history],
    ['tool results', t.toolResults],
    ['total', t.total],
  ];
  return [
    'tokens by category (estimate, o200k_base):',
    ...rows.map(([k, v]) => `  ${k.padEnd(13)}${n(v).padStart(9)}`),
  ];
}

function change(s: ContextStep): string {
  const c = s.change;
  if (!c) return 'change: first request of the session';
  const append = !c.systemChanged && !c.toolsChanged && c.droppedMessages === 0;
  return (
    `change against request ${c.previous}: ${append ? 'pure append' : 'NOT an append'} — system ${c.systemChanged ? 'changed' : 'same'}, ` +
    `tools ${c.toolsChanged ? 'changed' : 'same'}, ${c.keptMessages} messages kept, ${c.droppedMessages} dropped, ` +
    `${c.addedMessages} added; ${pct(c.sharedPrefix)} of the bytes shared with it`
  );
}

function sources(v: ContextView): string[] {
  const files = v.sources.filter((s) => !['environment', 'date', 'skills'].includes(s.key));
  const lines = files.map((s) => {
    if (!s.present) return `  ${s.label}  (none)`;
    const cut = s.cutBytes ? `, CUT: ${n(s.cutBytes)} bytes left out` : '';
    return `  ${s.label}  ${n(s.bytes ?? 0)} bytes${cut}`;
  });
  return [`instruction files (cap ${n(v.instructionCapBytes)} bytes per file):`, ...lines];
}

function request(s: ContextStep): string[] {
  const out = ['--- system ---', s.request.system, `--- tools (${s.request.tools.length}) ---`];
  out.push(JSON.stringify(s.request.tools, null, 2));
  out.push(`--- messages (${s.request.messages.length}) ---`);
  s.request.messages.forEach((m, i) => out.push(`[${i + 1}] ${messageRole(m)}:`, messageText(m)));
  return out;
}

/** The text `landfall sessions context` prints for `view` (module docstring). */
export function formatContext(view: ContextView): string {
  const s = view.step;
  if (!s) return [`session ${view.sessionId}: no model request yet`, ...sources(view)].join('\n');
  return [...header(s, view.sessionId), ...categories(s), change(s), ...sources(view), ...request(s)].join('\n');
}
