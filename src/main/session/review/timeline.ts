/**
 * The session's timeline (DESIGN §8): one point per agent step (its step-start → step-finish trees,
 * labelled with the step's tools and files) and one per review decision or undo (the tree before → after it),
 * ordered by time (steps before decisions of the same millisecond, decisions in log order).
 * A step without a step-finish (running, or cut by a crash) has no after tree yet and is left out, and so is a step
 * that changed nothing (a read, the closing text: before tree = after tree) — the timeline is one of snapshots.
 */
import type { MessageWithParts } from '../../../shared/model';
import type { TimelineEntry } from '../../../shared/review-schemas';
import type { ReviewEvent } from './log';

/** Path-like fields of tool inputs, in the order tools use them. */
const PATH_KEYS = ['filePath', 'path', 'file'] as const;

function toolPath(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  for (const k of PATH_KEYS) {
    const v = (input as Record<string, unknown>)[k];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return undefined;
}

function label(tools: string[], files: string[]): string {
  const t = tools.length > 0 ? [...new Set(tools)].join(', ') : 'step';
  if (files.length === 0) return t;
  const shown = files.slice(0, 3).join(', ');
  return `${t} · ${shown}${files.length > 3 ? ` +${files.length - 3}` : ''}`;
}

type Draft = Omit<TimelineEntry, 'index'>;

/** The steps of the messages, in order. */
export function stepEntries(messages: readonly MessageWithParts[]): Draft[] {
  const out: Draft[] = [];
  for (const m of messages) {
    let open: { id: string; from: string; time: number; tools: string[]; files: string[] } | null = null;
    for (const p of m.parts) {
      if (p.type === 'step-start') open = { id: p.id, from: p.snapshot, time: p.time, tools: [], files: [] };
      else if (!open) continue;
      else if (p.type === 'tool') {
        open.tools.push(p.tool);
        const f = toolPath(p.input);
        if (f && !open.files.includes(f)) open.files.push(f);
      } else if (p.type === 'patch') {
        for (const f of p.files) if (!open.files.includes(f)) open.files.push(f);
      } else if (p.type === 'step-finish') {
        if (p.snapshot !== open.from)
          out.push({
            id: open.id,
            kind: 'step',
            messageId: m.id,
            from: open.from,
            to: p.snapshot,
            time: open.time,
            tools: open.tools,
            files: open.files,
            label: label(open.tools, open.files),
          });
        open = null;
      }
    }
  }
  return out;
}

/** Timeline points of review decisions and undos (undone decisions flagged). */
export function decisionEntries(events: readonly ReviewEvent[]): Draft[] {
  const undone = new Set(events.filter((e) => e.type === 'review.undone').map((e) => e.decisionId));
  return events.map((e): Draft => {
    const files = e.files.map((f) => f.path);
    if (e.type === 'review.undone') {
      return {
        id: `undo-${e.seq}`,
        kind: 'decision',
        from: e.treeBefore,
        to: e.treeAfter,
        time: e.time,
        tools: ['undo'],
        files,
        label: `Undo · ${files.join(', ') || 'decision'}`,
      };
    }
    const n = e.hunks.length;
    const verb = e.action === 'accept' ? 'Kept' : 'Rejected';
    const paths = [...new Set(e.hunks.map((h) => h.path))];
    return {
      id: e.decisionId,
      kind: 'decision',
      ...(e.messageId ? { messageId: e.messageId } : {}),
      from: e.treeBefore,
      to: e.treeAfter,
      time: e.time,
      tools: [e.action],
      files: paths,
      label: `${verb} ${n} hunk${n === 1 ? '' : 's'} · ${paths.slice(0, 3).join(', ')}`,
      ...(undone.has(e.decisionId) ? { undone: true } : {}),
    };
  });
}

/**
 * Steps and decisions merged by time (stable), numbered; with `marks` (the session's revert, reverted.ts) the points
 * whose changes the revert took off disk flagged `reverted`.
 */
export function buildTimeline(
  messages: readonly MessageWithParts[],
  events: readonly ReviewEvent[],
  marks: { entries: ReadonlySet<string> } | null = null,
): TimelineEntry[] {
  const steps = stepEntries(messages);
  const decisions = decisionEntries(events);
  const out: Draft[] = [];
  let i = 0;
  let j = 0;
  while (i < steps.length || j < decisions.length) {
    const s = steps[i];
    const d = decisions[j];
    if (s && (!d || s.time <= d.time)) {
      out.push(s);
      i++;
    } else if (d) {
      out.push(d);
      j++;
    }
  }
  return out.map((e, index) => ({ ...e, index, ...(marks?.entries.has(e.id) ? { reverted: true } : {}) }));
}
