/**
 * What the summariser is shown of old tool outputs (`npm run bench:context`, issue 14 §6): a compaction's summary
 * request sends tool outputs older than the newest SUMMARY_PROTECT_TOKENS tokens of tool output as their start and
 * end with every error line (summary-outputs.ts). This measures, on real recorded sessions, what that costs the
 * summary and what it saves: each session's history is folded as a compaction would fold it (all but the newest
 * ~15,000 tokens, compaction.ts keptFromIndex) and its summary request is built with each protected share in turn.
 *
 * Facts counted in every folded tool output, as the summary template asks for them (paths, commands, exit codes,
 * test counts, error text): each line naming an error (summary-outputs.ts ERROR_LINE) and the output's first and
 * last non-empty lines (where runners print the command, the counts and the exit status). A fact is kept when its
 * text (trimmed, its first 200 characters) appears in the request. Tool calls (commands, paths) are never
 * shortened, so they are not counted.
 */
import type { ModelMessage } from 'ai';
import { keptFromIndex } from '../src/main/agent/context/compaction';
import type { HistoryUnit } from '../src/main/agent/context/compaction-history';
import { summaryRequest, toolOutputTokens } from '../src/main/agent/context/compaction-request';
import { ERROR_LINE } from '../src/main/agent/context/summary-outputs';

/** Facts of the folded outputs and the summary request's size, for one protected share. */
export interface SummaryQuality {
  protect: number;
  tokens: number;
  errorLines: { kept: number; total: number };
  endLines: { kept: number; total: number };
}

/** The text of each tool result in `units`, as the summary request renders it (a string, or its JSON). */
function outputs(units: HistoryUnit[]): string[] {
  const out: string[] = [];
  for (const m of units.flatMap((u) => u.messages) as ModelMessage[]) {
    if (m.role !== 'tool' || typeof m.content === 'string') continue;
    for (const c of m.content) {
      if (c.type !== 'tool-result') continue;
      const v = (c.output as { value?: unknown }).value;
      out.push(typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return out;
}

const fact = (line: string): string => line.trim().slice(0, 200);

/**
 * Folds `visible` (a session's history units, oldest first) as a compaction would and builds its summary request
 * once per value of `protects` (tokens of the newest tool output kept whole, over the whole history), within
 * `budget` tokens. Undefined when there is nothing to fold.
 */
export function summaryQuality(
  visible: HistoryUnit[],
  protects: number[],
  budget: number,
): SummaryQuality[] | undefined {
  const at = keptFromIndex(visible);
  if (at === undefined) return undefined;
  const folded = visible.slice(0, at);
  const kept = toolOutputTokens(visible.slice(at));
  const texts = outputs(folded);
  return protects.map((protect) => {
    const { prompt, tokens } = summaryRequest(folded, undefined, budget, Math.max(0, protect - kept));
    const q: SummaryQuality = { protect, tokens, errorLines: { kept: 0, total: 0 }, endLines: { kept: 0, total: 0 } };
    for (const text of texts) {
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      for (const l of lines.filter((l) => ERROR_LINE.test(l))) {
        q.errorLines.total++;
        if (prompt.includes(fact(l))) q.errorLines.kept++;
      }
      for (const l of new Set([lines[0], lines.at(-1)])) {
        if (l === undefined) continue;
        q.endLines.total++;
        if (prompt.includes(fact(l))) q.endLines.kept++;
      }
    }
    return q;
  });
}
