/**
 * Turning a recorded session's calls into what the replay provider will send, turn by turn.
 *
 * - Which calls: `recorded` mode keeps the file calls whose original outcome was ok; `live` keeps every file
 *   call (failed ones too). bash, submit and unparsed responses are context only and never replayed; SWE-agent
 *   `insert`/`undo_edit` (absent from the corpus) are listed as skipped.
 * - Mapping: read/list → read; edit → edit (our engine; aider's `landed_in` names the file it really changed);
 *   write → write; delete → apply_patch with a Delete File hunk.
 * - The original tools let a model edit a file it never viewed; Landfall requires a read first, so a synthetic
 *   read (marked `synthetic`) precedes the first change of an existing path the replay has not read or written.
 * - Turns: aider — one turn per model reply (`response_index`; a read without one joins the next reply);
 *   SWE-agent — a turn ends at a bash/submit call that follows a file change (the agent ran something to check
 *   its work), which gives the natural "change, then check" rhythm of a conversation.
 */
import type { CorpusCall } from './corpus';

export interface PlannedCall {
  seq: number;
  callId: string;
  toolName: string;
  input: Record<string, unknown>;
  synthetic: boolean;
  recorded: string;
  path?: string;
}

export interface ReplayPlan {
  turns: PlannedCall[][];
  /** Calls not sent to the loop, with why: `context` (bash/submit), `recorded_failure` (recorded mode), `skipped`. */
  notReplayed: { seq: number; tool: string; recorded: string; reason: string }[];
}

const FILE_TOOLS = new Set(['read', 'list', 'edit', 'write', 'delete']);
const CHANGES = new Set(['edit', 'write', 'delete']);

/** The apply_patch text that deletes one file. */
export function deletePatch(p: string): string {
  return `*** Begin Patch\n*** Delete File: ${p}\n*** End Patch`;
}

function mapCall(
  c: CorpusCall,
  target: string,
  patchField: string,
): { toolName: string; input: Record<string, unknown> } {
  switch (c.tool) {
    case 'edit':
      return {
        toolName: 'edit',
        input: {
          filePath: target,
          oldString: c.old_string ?? '',
          newString: c.new_string ?? '',
          replaceAll: c.replace_all ?? false,
        },
      };
    case 'write':
      return { toolName: 'write', input: { filePath: target, content: c.content ?? '' } };
    case 'delete':
      return { toolName: 'apply_patch', input: { [patchField]: deletePatch(target) } };
    default:
      return { toolName: 'read', input: { filePath: target } };
  }
}

function splitTurns(calls: CorpusCall[]): CorpusCall[][] {
  const turns: CorpusCall[][] = [];
  let cur: CorpusCall[] = [];
  let lastResponse: number | undefined;
  let changed = false;
  for (const c of calls) {
    if (c.response_index !== undefined) {
      if (
        lastResponse !== undefined &&
        c.response_index !== lastResponse &&
        cur.some((x) => x.response_index !== undefined)
      ) {
        turns.push(cur);
        cur = [];
        changed = false;
      }
      lastResponse = c.response_index;
    }
    cur.push(c);
    if (CHANGES.has(c.tool)) changed = true;
    if ((c.tool === 'bash' || c.tool === 'submit') && changed) {
      turns.push(cur);
      cur = [];
      changed = false;
    }
  }
  if (cur.length > 0) turns.push(cur);
  return turns;
}

/**
 * Build the replay plan for `mode`. `existing` holds the paths present before the replay (files.jsonl): only
 * those get a synthetic read (a new file needs none). `patchField` is apply_patch's input field.
 */
export function planReplay(
  calls: CorpusCall[],
  mode: 'recorded' | 'live',
  existing: ReadonlySet<string>,
  patchField = 'patchText',
): ReplayPlan {
  const plan: ReplayPlan = { turns: [], notReplayed: [] };
  const seen = new Set<string>();
  for (const turn of splitTurns(calls)) {
    const out: PlannedCall[] = [];
    for (const c of turn) {
      const recorded = c.orig_outcome ?? 'context';
      if (!FILE_TOOLS.has(c.tool)) {
        plan.notReplayed.push({
          seq: c.seq,
          tool: c.tool,
          recorded,
          reason: c.tool === 'bash' || c.tool === 'submit' || c.tool === 'unparsed_response' ? 'context' : 'skipped',
        });
        continue;
      }
      if (mode === 'recorded' && recorded !== 'ok') {
        plan.notReplayed.push({ seq: c.seq, tool: c.tool, recorded, reason: 'recorded_failure' });
        continue;
      }
      const target = c.landed_in ?? c.path ?? '.';
      if (CHANGES.has(c.tool) && !seen.has(target) && existing.has(target)) {
        out.push({
          seq: c.seq,
          callId: `replay-${c.seq}-read`,
          toolName: 'read',
          input: { filePath: target },
          synthetic: true,
          recorded: 'ok',
          path: target,
        });
      }
      const mapped = mapCall(c, target, patchField);
      out.push({ seq: c.seq, callId: `replay-${c.seq}`, ...mapped, synthetic: false, recorded, path: target });
      if (c.tool === 'delete') seen.delete(target);
      else if (c.tool !== 'list') seen.add(target);
    }
    if (out.length > 0) plan.turns.push(out);
  }
  return plan;
}
