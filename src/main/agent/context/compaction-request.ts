/**
 * The summary request of a compaction, bounded so it can never overflow itself (DESIGN §11; reported failure of
 * the anchors: sessions that could no longer accept input because the summary request was itself too long).
 *
 * The folded history is rendered as a plain transcript (the summariser needs no tool definitions): the previous
 * summary first when there is one (rolling compaction: only that summary and what followed it are sent, never the
 * history it already folded), then each unit — user text, assistant text, tool calls with their input, tool
 * results. Tool results older than the newest SUMMARY_PROTECT_TOKENS tokens of tool output are always sent as a
 * short start and end with exact counts and their error lines (summary-outputs.ts). When the transcript is still
 * over `budget` tokens, tool results are replaced by a one-line stand-in, oldest first, until it fits; when it
 * still does not, the transcript is cut by a rule that needs no model: the start (where the task is) and the end
 * (the latest work) are kept, the middle is left out and said.
 */
import type { ModelMessage } from 'ai';
import { estimateTokens } from './tokens';
import type { HistoryUnit } from './compaction-history';
import { shortenOutput, SUMMARY_PROTECT_TOKENS } from './summary-outputs';

/** What the summariser is told to keep (the template). */
export const SUMMARY_SYSTEM = `You write the working memory of a coding agent whose earlier conversation is being replaced by your summary. The agent will continue the work from your summary alone, so keep every fact it needs and nothing else. Use exactly these headings:
## Task and user instructions
What the user asked for, every instruction, constraint, preference and decision the user gave (quote short ones word for word).
## Files
Every file path read, created, edited or deleted, and what changed in each.
## Code
Function, class, type, variable and symbol names that matter, with where they live.
## Commands
Commands run (build, test, git …) and their outcome: exit codes, test counts, what failed.
## Errors
Exact error text that is still relevant, and what was tried against it.
## Done
What is finished and verified.
## Open
What is left to do, in order, and the very next step.
Be specific and literal (paths, names, numbers); never invent anything; write only the summary.`;

/** The instruction closing the summary request. */
export const SUMMARY_INSTRUCTION =
  'Summarise the conversation above under the headings you were given. Reply with the summary only.';

/** Share of the budget the start of a cut transcript keeps (the rest goes to its end). */
const HEAD_SHARE = 0.3;

interface Chunk {
  text: string;
  tokens: number;
  /** A tool result: may be replaced by a stand-in when the request is over budget. */
  result: boolean;
  /** A tool result's heading and output, apart (to shorten the output alone). */
  output?: { heading: string; value: string };
}

function value(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function chunksOf(m: ModelMessage): Omit<Chunk, 'tokens'>[] {
  if (m.role === 'system') return [{ text: `## System\n${m.content}`, result: false }];
  if (m.role === 'user')
    return [{ text: `## User\n${typeof m.content === 'string' ? m.content : value(m.content)}`, result: false }];
  if (typeof m.content === 'string') return [{ text: `## Assistant\n${m.content}`, result: false }];
  const out: Omit<Chunk, 'tokens'>[] = [];
  for (const c of m.content) {
    if (c.type === 'text') out.push({ text: `## Assistant\n${c.text}`, result: false });
    else if (c.type === 'tool-call') out.push({ text: `## Tool call ${c.toolName}\n${value(c.input)}`, result: false });
    else if (c.type === 'tool-result') {
      const o = c.output as { type: string; value?: unknown };
      const heading = `## Tool result (${c.toolName})`;
      const body = value(o.value);
      out.push({ text: `${heading}\n${body}`, result: true, output: { heading, value: body } });
    }
  }
  return out;
}

export interface SummaryRequest {
  /** The user message of the request: the transcript and the instruction. */
  prompt: string;
  /** Estimated tokens of system + prompt. */
  tokens: number;
  /** Old tool results shortened to start + end (summary-outputs.ts), whatever the budget (before any stand-in). */
  shortenedResults: number;
  /** Tool results replaced by a stand-in, and whether the transcript was cut in the middle. */
  droppedResults: number;
  cut: boolean;
}

/** Keep the start and the end of `chunks` within `budget` tokens, with a marker where the middle was left out. */
function cutMiddle(chunks: Chunk[], budget: number): Chunk[] {
  const head: Chunk[] = [];
  let used = 0;
  let i = 0;
  for (; i < chunks.length && used + (chunks[i] as Chunk).tokens <= budget * HEAD_SHARE; i++) {
    head.push(chunks[i] as Chunk);
    used += (chunks[i] as Chunk).tokens;
  }
  const tail: Chunk[] = [];
  for (let j = chunks.length - 1; j >= i && used + (chunks[j] as Chunk).tokens <= budget; j--) {
    tail.unshift(chunks[j] as Chunk);
    used += (chunks[j] as Chunk).tokens;
  }
  const left = chunks.length - head.length - tail.length;
  const marker = `[… ${left} part(s) of the conversation left out here: the summary request must fit the window]`;
  return [...head, { text: marker, tokens: estimateTokens(marker), result: false }, ...tail];
}

/** Shorten one chunk to its start and end within `budget` tokens (a single part bigger than the whole budget). */
function shorten(c: Chunk, budget: number): Chunk {
  const chars = Math.max(200, Math.floor((c.text.length * budget) / Math.max(1, c.tokens)));
  const text = `${c.text.slice(0, Math.floor(chars * HEAD_SHARE))}\n[… ${c.text.length - chars} characters left out …]\n${c.text.slice(c.text.length - Math.ceil(chars * (1 - HEAD_SHARE)))}`;
  return { text, tokens: estimateTokens(text), result: c.result };
}

/**
 * Tokens of the tool results of `units` as the summary request renders them (compaction.ts: the tool output of the
 * history kept verbatim, which counts against SUMMARY_PROTECT_TOKENS first).
 */
export function toolOutputTokens(units: HistoryUnit[]): number {
  const chunks = units.flatMap((u) => u.messages.flatMap(chunksOf));
  return chunks.reduce((n, c) => n + (c.result ? estimateTokens(c.text) : 0), 0);
}

/**
 * Replace, in place, every tool result older than the newest `protect` tokens of tool output by its shortened form
 * (the result crossing the line is shortened too, as opencode's prune does); answers how many were shortened.
 */
function shortenOld(chunks: Chunk[], protect: number): number {
  let seen = 0;
  let shortened = 0;
  for (let i = chunks.length - 1; i >= 0; i--) {
    const c = chunks[i] as Chunk;
    if (!c.result || c.output === undefined) continue;
    seen += c.tokens;
    if (seen <= protect) continue;
    const short = shortenOutput(c.output.value);
    if (short === undefined) continue;
    const text = `${c.output.heading}\n${short.text}`;
    const tokens = estimateTokens(text);
    if (tokens >= c.tokens) continue;
    chunks[i] = { text, tokens, result: true };
    shortened++;
  }
  return shortened;
}

/**
 * The summary request for `folded` (with `previous`, the summary being rolled, first), within `budget` tokens
 * including SUMMARY_SYSTEM (module docstring). Deterministic: the same history gives the same bytes.
 */
export function summaryRequest(
  folded: HistoryUnit[],
  previous: string | undefined,
  budget: number,
  protect = SUMMARY_PROTECT_TOKENS,
): SummaryRequest {
  const fixed = estimateTokens(SUMMARY_SYSTEM) + estimateTokens(SUMMARY_INSTRUCTION) + 16;
  const room = Math.max(1_000, budget - fixed);
  const raw = [
    ...(previous === undefined ? [] : [{ text: `## Summary of the part before\n${previous}`, result: false }]),
    ...folded.flatMap((u) => u.messages.flatMap(chunksOf)),
  ];
  let chunks: Chunk[] = raw.map((c) => ({ ...c, tokens: estimateTokens(c.text) }));
  const shortenedResults = shortenOld(chunks, protect);
  let total = chunks.reduce((n, c) => n + c.tokens, 0);
  let droppedResults = 0;
  for (let i = 0; i < chunks.length && total > room; i++) {
    const c = chunks[i] as Chunk;
    if (!c.result) continue;
    const stand = `## Tool result\n[output left out of the summary request: ${c.tokens} tokens]`;
    const tokens = estimateTokens(stand);
    total += tokens - c.tokens;
    chunks[i] = { text: stand, tokens, result: false };
    droppedResults++;
  }
  let cut = false;
  if (total > room) {
    cut = true;
    chunks = chunks.map((c) => (c.tokens > room / 2 ? shorten(c, Math.floor(room / 4)) : c));
    chunks = cutMiddle(chunks, room);
  }
  const prompt = `${chunks.map((c) => c.text).join('\n\n')}\n\n${SUMMARY_INSTRUCTION}`;
  const tokens = estimateTokens(SUMMARY_SYSTEM) + estimateTokens(prompt);
  return { prompt, tokens, shortenedResults, droppedResults, cut };
}
