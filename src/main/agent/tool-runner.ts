/**
 * Runs the tool calls of one step, in the order the model sent them, each through its stored part:
 * pending → running → completed | error. A failure is a result the model reads, never a crash of the turn.
 *
 * Before a tool runs:
 * - the step finished with `length` (output limit): the call is not run, its part is `error: truncated` and the
 *   model is told to send it again smaller (fixtures/bugs/README.md B23: cut-off arguments are never "repaired" and written);
 * - input that did not parse or fit the tool's schema: `invalid_input`;
 * - a path argument outside the project is refused at once (`outside_root`), with no question: every tool works
 *   only inside the project root (fs/workspace.ts), so a question would grant what the tool then refuses anyway
 *   (a permission grants exactly what its prompt showed). Refusing is the safer of the two ways to keep that
 *   promise: no answer, "always" or `external_directory` rule ever lets the model read ~/.ssh or another project;
 *   a symlink inside the project that leads out is refused by the tool itself, also `outside_root`;
 * - the read-only tools (read, list, glob, grep) are judged against `read` rules by the path as given AND its real
 *   path (a symlink alias of a denied file is denied; default allow, so no question unless a rule says ask or deny);
 * - every tool gets the read policy in force (`ctx.reveal`, reveal-policy.ts): grep, glob and list leave out the
 *   files a read rule withholds and say how many, file tools refuse them, apply_patch refuses to touch them.
 * - a read of a tool output the output cap saved whole (its absolute path in the data folder) asks nothing;
 *   no other path outside the project is spared the question.
 * Rules are those of settings.json at this very call (settings/live.ts). After a tool ran, its output goes
 * through the one output cap (context/tool-output.ts) before it is stored and sent.
 * A stop (abort) while a tool runs marks its part `error: interrupted` and leaves the remaining calls unrun.
 * The turn's loop guard (loop-guard.ts), when given, judges every call first (repetition, suspended tool, tools not
 * offered, last step, budget: a refusal is the call's error result and nothing runs) and may append a notice to a
 * result the model reads.
 */
import path from 'node:path';
import { relForms } from './permission/reveal-policy';
import type { ModelToolCall } from './stream-step';
import type { SessionStore } from '../session/store';
import { newId } from '../session/ids';
import type { Part } from '../../shared/model';
import type { PermissionRequest, ToolContext, ToolDefinition, ToolOutcome, ToolProgress } from '../tools/types';
import type { PermissionGate } from './permission/gate';
import type { CallResult, GuardedCall, Refusal } from './loop-guard';

/** The part of the loop guard (loop-guard.ts LoopGuard) the runner uses. */
export interface CallGuard {
  before(call: GuardedCall): Refusal | undefined;
  after(call: GuardedCall, result: CallResult): string | undefined;
}
import { capToolOutcome } from './context/tool-output';
import { outputDir, savedOutputFile } from '../tools/output-cap-file';
import { holdGitPermission } from '../tools/git-sweep';

type ToolPart = Extract<Part, { type: 'tool' }>;

export interface RunToolsInput {
  calls: ModelToolCall[];
  finishReason: string;
  tools: Map<string, ToolDefinition>;
  store: SessionStore;
  gate: Pick<PermissionGate, 'askFor' | 'guardFor'>;
  ctx: Omit<ToolContext, 'ask'>;
  messageId: string;
  signal: AbortSignal;
  guard?: CallGuard;
}

export interface RunToolsResult {
  parts: ToolPart[];
  aborted: boolean;
  /** Root-relative paths the tools reported writing (from their commit diffs). */
  written: string[];
  /** True when a tool ran that may change files it does not report (bash). */
  opaque: boolean;
}

const TRUNCATED = {
  code: 'truncated',
  message:
    'Your reply hit the output-token limit while this tool call was being written, so its arguments were cut off. The call was NOT executed and nothing was written.',
};

/** Root-relative paths a tool outcome says it wrote: metadata FileChange lists under any key. */
export function writtenFiles(outcome: ToolOutcome): string[] {
  if (!outcome.ok) return [];
  const found: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(visit);
      return;
    }
    if (
      v &&
      typeof v === 'object' &&
      typeof (v as { file?: unknown }).file === 'string' &&
      typeof (v as { additions?: unknown }).additions === 'number'
    ) {
      found.push((v as { file: string }).file);
    }
  };
  for (const value of Object.values(outcome.metadata)) visit(value);
  return [...new Set(found)];
}

/** Tools that only read; they are judged against `read` rules here (they do not ask themselves). */
const READ_TOOLS = new Set(['read', 'list', 'glob', 'grep']);

function pathArg(input: unknown): string | undefined {
  const p =
    (input as { filePath?: unknown; path?: unknown } | null)?.filePath ?? (input as { path?: unknown } | null)?.path;
  return typeof p === 'string' && p !== '' ? p : undefined;
}

function outsideRoot(root: string, input: unknown): string | undefined {
  const p = pathArg(input);
  if (p === undefined) return undefined;
  const abs = path.resolve(root, p);
  const rel = path.relative(root, abs);
  return rel.startsWith('..') || path.isAbsolute(rel) ? abs : undefined;
}

/** The refusal of a call whose path argument `outside` (absolute) lies outside the project `root`. */
function outsideRefusal(part: ToolPart, root: string, outside: string): ToolPart {
  const message = `${outside} is outside the project root ${root}.`;
  const hint =
    'Only files inside the project can be read or changed. Ask the user to copy what you need into the project, or to open that folder as a project.';
  return {
    ...part,
    state: 'error',
    error: { code: 'outside_root', message },
    output: `Error (outside_root): ${message}\n${hint}`,
  };
}

/**
 * Whether `outside` (a path outside the project) is a whole tool output the output cap saved in the data folder
 * (tools/output-cap-file.ts), which the read tool may open without a question; nothing else outside is readable.
 */
async function isSavedOutput(ctx: RunToolsInput['ctx'], tool: string, outside: string): Promise<boolean> {
  return tool === 'read' && (await savedOutputFile(outputDir(ctx.scratchDir), outside)) !== undefined;
}

/**
 * The permission question a call needs before it runs (reads — by the path as given and by its real path, so a
 * symlink alias is judged as what it leads to), or undefined.
 */
async function preAsk(ctx: RunToolsInput['ctx'], tool: string, input: unknown): Promise<PermissionRequest | undefined> {
  const root = ctx.root;
  // only a saved whole tool output gets here from outside the project (runOne refuses every other outside path)
  if (outsideRoot(root, input)) return undefined;
  if (!READ_TOOLS.has(tool)) return undefined;
  const given = pathArg(input) ?? '.';
  const forms = await relForms(root, given);
  const patterns = forms.length === 0 ? ['.'] : forms;
  return { tool, permission: 'read', patterns, title: `${tool} ${patterns[0]}` };
}

/** Resolves 'aborted' when the signal fires; `dispose()` removes the listener (one per tool call otherwise leaks). */
function abortPromise(signal: AbortSignal): { promise: Promise<'aborted'>; dispose: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

async function runOne(
  input: RunToolsInput,
  call: ModelToolCall,
  part: ToolPart,
): Promise<{ part: ToolPart; outcome?: ToolOutcome; aborted: boolean }> {
  const { store } = input;
  const finish = (p: ToolPart): ToolPart => store.putPart(p) as ToolPart;
  if (input.finishReason === 'length')
    return {
      part: finish({
        ...part,
        state: 'error',
        error: TRUNCATED,
        output: `Error (truncated): ${TRUNCATED.message} Send the call again with less content (split a large write into several smaller edits).`,
      }),
      aborted: false,
    };
  const def = input.tools.get(call.toolName);
  if (!def)
    return {
      part: finish({
        ...part,
        state: 'error',
        error: { code: 'invalid_input', message: `Unknown tool ${call.toolName}` },
        output: `Error (invalid_input): there is no tool named ${call.toolName}. Use one of: ${[...input.tools.keys()].join(', ')}.`,
      }),
      aborted: false,
    };
  const parsed = call.invalid ? undefined : def.input.safeParse(call.input);
  if (!parsed || !parsed.success) {
    const why = call.error ?? parsed?.error.message ?? 'input did not parse';
    return {
      part: finish({
        ...part,
        state: 'error',
        error: { code: 'invalid_input', message: why },
        output: `Error (invalid_input): the arguments of ${call.toolName} are not valid: ${why}\nSend the call again with arguments that match the tool's schema.`,
      }),
      aborted: false,
    };
  }
  const outside = outsideRoot(input.ctx.root, parsed.data);
  if (outside && !(await isSavedOutput(input.ctx, call.toolName, outside)))
    return { part: finish(outsideRefusal(part, input.ctx.root, outside)), aborted: false };
  // A call the user allows into git's configuration or hooks is marked as running until its execution settles,
  // so the sweep around a concurrent bash command (tools/git-sweep.ts) leaves its changes alone.
  let release: (() => void) | undefined;
  const gateAsk = input.gate.askFor(input.ctx.sessionId, part.id, input.ctx.root);
  const ask: typeof gateAsk = async (request) => {
    const answer = await gateAsk(request);
    if (answer.allow && answer.gitDir && !release) release = holdGitPermission();
    return answer;
  };
  const question = await preAsk(input.ctx, call.toolName, parsed.data);
  if (question) {
    const answer = await ask(question);
    if (!answer.allow) {
      const reason = answer.reason ?? 'Not allowed.';
      const what = `Reading ${question.patterns[0]} is not allowed.`;
      return {
        part: finish({
          ...part,
          state: 'error',
          error: { code: 'permission_denied', message: reason },
          output: `Error (permission_denied): ${what} ${reason}`,
        }),
        aborted: false,
      };
    }
  }
  let latest = finish({ ...part, state: 'running', input: parsed.data });
  const running = latest;
  const reveal = await input.gate.guardFor(input.ctx.sessionId, input.ctx.root);
  const progress = (p: ToolProgress): void => {
    const next = withProgress(latest, p);
    if (!next) return;
    const stored = store.updatePart(next) as ToolPart | undefined;
    if (stored) latest = stored;
  };
  const exec = def.execute(parsed.data, {
    ...input.ctx,
    ask,
    reveal,
    progress,
    signal: input.signal,
    partId: part.id,
  });
  void exec.finally(() => release?.()).catch(() => undefined);
  const aborted = abortPromise(input.signal);
  const raced = await Promise.race([exec, aborted.promise]).finally(aborted.dispose);
  if (raced === 'aborted') {
    exec.catch(() => undefined);
    return {
      part: finish({
        ...running,
        state: 'error',
        error: { code: 'interrupted', message: 'Stopped by the user while the tool ran.' },
        output: 'Error (interrupted): the user stopped the turn while this tool ran.',
      }),
      aborted: true,
    };
  }
  const outcome = await capToolOutcome(call.toolName, raced, input.ctx);
  const done: ToolPart = outcome.ok
    ? {
        ...running,
        state: 'completed',
        output: outcome.output,
        metadata: { title: outcome.title, ...outcome.metadata },
      }
    : {
        ...running,
        state: 'error',
        output: outcome.output,
        error: { code: outcome.error.code, message: outcome.error.message },
        metadata: outcome.error.data ? { data: outcome.error.data } : undefined,
      };
  latest = finish(done);
  return { part: latest, outcome, aborted: false };
}

/**
 * The tool part with a progress report folded in, or undefined when it does not apply: `diagnostics` marks a
 * running part `phase: 'diagnostics'` with the servers waited for (its bytes are on disk); `late-diagnostics`
 * merges diagnostics that came after the call finished into a completed part's `diagnostics` (per file).
 */
export function withProgress(part: ToolPart, p: ToolProgress): ToolPart | undefined {
  const meta = part.metadata ?? {};
  if (p.phase === 'diagnostics')
    return part.state === 'running'
      ? { ...part, metadata: { ...meta, phase: 'diagnostics', servers: p.servers } }
      : undefined;
  if (part.state !== 'completed') return undefined;
  const had = (meta['diagnostics'] ?? {}) as Record<string, unknown>;
  return { ...part, metadata: { ...meta, diagnostics: { ...had, ...p.report.diagnostics }, lateDiagnostics: true } };
}

/** Run every call of a step; see the module docstring. Tool exceptions (bugs) become `internal` errors. */
export async function runTools(input: RunToolsInput): Promise<RunToolsResult> {
  const result: RunToolsResult = { parts: [], aborted: false, written: [], opaque: false };
  const pendingParts = input.calls.map(
    (call) =>
      input.store.putPart({
        id: newId('prt'),
        sessionId: input.ctx.sessionId,
        messageId: input.messageId,
        time: Date.now(),
        type: 'tool',
        tool: call.toolName,
        callId: call.callId,
        state: 'pending',
        input: call.input ?? {},
      }) as ToolPart,
  );
  for (let i = 0; i < input.calls.length; i++) {
    const call = input.calls[i] as ModelToolCall;
    const part = pendingParts[i] as ToolPart;
    if (result.aborted || input.signal.aborted) {
      result.parts.push(
        input.store.putPart({
          ...part,
          state: 'error',
          error: { code: 'interrupted', message: 'Not run: the turn was stopped.' },
          output: 'Error (interrupted): not run, the user stopped the turn.',
        }) as ToolPart,
      );
      result.aborted = true;
      continue;
    }
    const refusal = input.guard?.before(call);
    if (refusal) {
      const output = `Error (${refusal.code}): ${refusal.message}`;
      const error = { code: refusal.code, message: refusal.message };
      result.parts.push(input.store.putPart({ ...part, state: 'error', error, output }) as ToolPart);
      continue;
    }
    try {
      const r = await runOne(input, call, part);
      const notice = input.guard?.after(call, r.part);
      if (notice)
        r.part = input.store.putPart({ ...r.part, output: `${r.part.output ?? ''}\n\n${notice}` }) as ToolPart;
      result.parts.push(r.part);
      result.aborted = r.aborted;
      if (r.outcome) result.written.push(...writtenFiles(r.outcome));
      const notRun = ['invalid_input', 'permission_denied', 'truncated'].includes(r.part.error?.code ?? '');
      if (call.toolName === 'bash' && !notRun) result.opaque = true;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const notice = input.guard?.after(call, { state: 'error', error: { code: 'internal' } });
      result.parts.push(
        input.store.putPart({
          ...part,
          state: 'error',
          error: { code: 'internal', message },
          output: `Error (internal): the tool failed unexpectedly: ${message}${notice ? `\n\n${notice}` : ''}`,
        }) as ToolPart,
      );
    }
  }
  return result;
}
