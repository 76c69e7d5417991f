/**
 * Session commands of the command line:
 *   landfall run --dir D [--provider ID] [--model M] [--data DATA] [--no-lsp] "prompt"
 *     (permission questions are asked on the terminal, naming exactly what they answer; type-ahead is discarded
 *     before each one — permission-question.ts; after a runaway-loop stop the terminal is asked "Go on? [y/N]",
 *     and an unattended run — stdin not a terminal — is not asked and says so: loop-question.ts)
 *     (the project's language servers, from settings' `lsp`, report diagnostics after each edit; they are shut
 *     down when the command ends, also after Ctrl+C or an error; --no-lsp runs without them)
 *   landfall replay --dir D --session <corpus session folder> [--mode recorded|live] [--no-seed] [--force] [--data DATA]
 *     (seeding refuses, exit 1 with `exists`, to overwrite files that differ from the recording's base; --force
 *     backs them up into DATA/replay-backups/ first and prints where)
 *   landfall sessions list --dir D | show ID | context ID [--step N] [--json]
 *                     | revert ID MESSAGE [--part P] [--force] [--preview]
 *                     | unrevert ID | undo ID [--force] | redo ID [--force]        (all take --data DATA)
 * The data folder defaults to $LANDFALL_DATA_DIR, else ~/.landfall. Exit codes: 0 ok, 1 refused/failed, 2 usage.
 * On a terminal, long operations (a first track, a revert's walk and writes, …) show one progress line on stderr,
 * erased when they end (progress-line.ts); on a pipe, and with --json, none.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Result } from '../../../shared/errors';
import type { CoreEvent } from '../../../shared/events';
import type { Part } from '../../../shared/model';
import { AgentService } from '../../agent/service';
import { dataDirOf } from '../../fs/data-dir';
import type { ServiceExtras } from '../../agent/service-types';
import { appLanguageServers } from '../services-lsp';
import { commandUsage } from './help';
import { formatContext } from './context';
import { TerminalPermissions } from './permission-question';
import { TerminalInput } from './terminal-input';
import { askAfterLoopStops } from './loop-question';
import type { EndedTurn } from './loop-question';
import { ProgressLine } from './progress-line';

/** What a refused seeding tells the command-line user to do: the flags that decide it. */
const SEED_REFUSAL_HINT =
  'Replay into an empty folder (or a checkout at the recorded commit), pass --no-seed to use the files as they are, or --force to back the originals up into the data folder and overwrite them.';

interface Args {
  flags: Map<string, string | true>;
  positional: string[];
}

function parse(args: string[]): Args {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const next = args[i + 1];
    if (
      ['--force', '--preview', '--no-seed', '--no-lsp', '--json'].includes(a) ||
      next === undefined ||
      next.startsWith('--')
    )
      flags.set(a.slice(2), true);
    else {
      flags.set(a.slice(2), next);
      i++;
    }
  }
  return { flags, positional };
}

function str(a: Args, name: string): string | undefined {
  const v = a.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** stderr's progress line: erased before anything else is printed, so output never lands in its middle. */
const line = new ProgressLine(process.stderr);
const out = (s: string): void => {
  line.clear();
  process.stdout.write(s);
};
const err = (s: string): void => {
  line.clear();
  process.stderr.write(s);
};

function failed<T>(r: Result<T>): r is Extract<Result<T>, { ok: false }> {
  if (r.ok) return false;
  err(`landfall: ${r.error.code}: ${r.error.message}\n${r.error.hint}\n`);
  return true;
}

/** Opens the service; its progress events draw the progress line, except for --json output. */
async function openService(a: Args, extras: ServiceExtras = {}): Promise<AgentService | undefined> {
  const dataDir = dataDirOf(str(a, 'data'));
  const svc = await AgentService.open({ dataDir, ...extras });
  if (failed(svc)) return undefined;
  if (!a.flags.has('json'))
    svc.value.on((e) => {
      if (e.type === 'progress') line.report(e);
    });
  return svc.value;
}

function describePart(p: Part): string | undefined {
  if (p.type !== 'tool' || (p.state !== 'completed' && p.state !== 'error')) return undefined;
  const title = typeof p.metadata?.title === 'string' ? p.metadata.title : p.tool;
  const head = p.state === 'completed' ? `✓ ${title}` : `✗ ${p.tool} (${p.error?.code ?? 'error'})`;
  const body = (p.output ?? p.error?.message ?? '')
    .split('\n')
    .slice(0, p.state === 'completed' ? 3 : 6)
    .join('\n  ');
  return `\n${head}\n  ${body}\n`;
}

/** The session's `loop-stop` part waiting for a decision (the last one), if any. */
function waitingLoopStop(svc: AgentService, sessionId: string): Extract<Part, { type: 'loop-stop' }> | undefined {
  const parts = svc.store.messages(sessionId).flatMap((m) => m.parts);
  const last = parts.filter((p) => p.type === 'loop-stop').at(-1);
  return last?.type === 'loop-stop' && last.decision === undefined ? last : undefined;
}

async function runPrompt(a: Args): Promise<number> {
  const dir = str(a, 'dir');
  const text = a.positional.join(' ');
  if (!dir || text === '') {
    err(`${commandUsage('run')}\n`);
    return 2;
  }
  // One manager for the project (created on the first edit or read), from the settings' `lsp` entry.
  const core: { svc?: AgentService } = {};
  // A folder trusted in the app (same data folder) is trusted here too; the command line never trusts by itself.
  const lsp =
    a.flags.get('no-lsp') === true
      ? undefined
      : appLanguageServers(
          () => core.svc?.getSettings().lsp,
          (root) => core.svc?.trust.isTrusted(root) ?? false,
        );
  const svc = await openService(a, lsp ? { diagnostics: (project) => lsp.hookFor(project) } : {});
  if (!svc) return 1;
  core.svc = svc;
  let interrupt: (() => void) | undefined;
  // stdin is released at the end, so the command can exit. A terminal is read from the start, so whatever is typed
  // while the agent works is thrown away before a question (a stray `y` never answers one); a pipe is read only once
  // a question is asked (what waits in it is drained then: terminal-input.ts).
  let input: TerminalInput | undefined = process.stdin.isTTY ? new TerminalInput(process.stdin) : undefined;
  let questions: TerminalPermissions | undefined;
  try {
    const project = await svc.openProject(dir);
    if (failed(project)) return 1;
    const session = svc.createSession(project.value.id, text.slice(0, 60));
    if (failed(session)) return 1;
    svc.on((e: CoreEvent) => {
      if (e.type === 'text.delta' && e.sessionId === session.value.id) out(e.delta);
      if (e.type === 'part.updated') {
        const d = describePart(e.part);
        if (d) out(d);
      }
      if (e.type === 'permission.asked' && e.sessionId === session.value.id) {
        questions ??= new TerminalPermissions(
          (input ??= new TerminalInput(process.stdin)),
          (id, reply) => svc.answerPermission(id, reply),
          (id) => svc.pendingPermissions().some((p) => p.requestId === id),
          out,
        );
        questions.ask(e);
      }
    });
    const sessionId = session.value.id;
    interrupt = () => {
      svc.stop(sessionId);
    };
    process.once('SIGINT', interrupt);
    const started = await svc.startTurn(sessionId, text, { provider: str(a, 'provider'), model: str(a, 'model') });
    if (failed(started)) return 1;
    const report = (r: EndedTurn): void => {
      out(`\n[${r.finishReason}, ${r.steps} steps, session ${sessionId}]\n`);
      if (r.error) err(`${r.error.code}: ${r.error.message}\n${r.error.hint}\n`);
    };
    const first = await started.value.turn.done;
    report(first);
    const r = await askAfterLoopStops(
      {
        sessionId,
        interactive: process.stdin.isTTY === true,
        waiting: () => waitingLoopStop(svc, sessionId),
        answer: (partId, decision) =>
          svc.answerLoop(sessionId, partId, decision, { provider: str(a, 'provider'), model: str(a, 'model') }),
        discardTypeAhead: () => (input ??= new TerminalInput(process.stdin)).discardTypeAhead(),
        line: () => (input ??= new TerminalInput(process.stdin)).line(),
        out,
        report,
      },
      first,
    );
    return r.error ? 1 : 0;
  } finally {
    input?.close();
    if (interrupt) process.off('SIGINT', interrupt);
    // Servers get LSP shutdown/exit, then the process-group kill, before the command returns (also after Ctrl+C,
    // which ends the turn, or an error).
    try {
      await svc.close();
    } finally {
      await lsp?.shutdown();
    }
  }
}

async function runReplay(a: Args): Promise<number> {
  const dir = str(a, 'dir');
  const corpus = str(a, 'session');
  const mode = str(a, 'mode') ?? 'recorded';
  if (!dir || !corpus || (mode !== 'recorded' && mode !== 'live')) {
    err(`${commandUsage('replay')}\n`);
    return 2;
  }
  mkdirSync(dir, { recursive: true });
  const svc = await openService(a);
  if (!svc) return 1;
  try {
    const project = await svc.openProject(dir);
    if (failed(project)) return 1;
    const session = svc.createSession(project.value.id, `replay ${path.basename(corpus)}`);
    if (failed(session)) return 1;
    const r = await svc.replay(
      session.value.id,
      corpus,
      { mode, seed: a.flags.get('no-seed') !== true, force: a.flags.get('force') === true },
      { seedRefusalHint: SEED_REFUSAL_HINT },
    );
    const view = svc.getSession(session.value.id);
    // refused before any turn ran (e.g. `exists`): leave no empty session behind
    if (!r.ok && view.ok && view.value.messages.length === 0) svc.deleteSession(session.value.id);
    if (failed(r)) return 1;
    const seed = r.value.seed;
    if (seed?.backupDir)
      out(`backed up before seeding (they differed from the recording's base): ${seed.backedUp.join(', ')}
  → ${seed.backupDir}
`);
    out(`${'seq'.padStart(4)}  ${'tool'.padEnd(11)} ${'recorded'.padEnd(10)} ${'landfall'.padEnd(14)} path\n`);
    for (const c of r.value.calls) {
      const lf = `${c.landfall}${c.rung && c.rung !== 'simple' ? ` (${c.rung})` : ''}`;
      out(
        `${String(c.seq).padStart(4)}  ${(c.synthetic ? `(${c.tool})` : c.tool).padEnd(11)} ${c.recorded.padEnd(10)} ${lf.padEnd(14)} ${c.path ?? ''}\n`,
      );
    }
    out(`\nsession ${session.value.id}, ${r.value.userMessageIds.length} turns\n\n${r.value.finalDiff}`);
    return 0;
  } finally {
    await svc.close();
  }
}

function showSession(svc: AgentService, id: string): number {
  const v = svc.getSession(id);
  if (failed(v)) return 1;
  out(
    `${v.value.session.title} (${v.value.session.id})${v.value.session.revert ? ` — reverted to ${v.value.session.revert.messageId}` : ''}\n`,
  );
  for (const m of v.value.messages) {
    out(`\n${m.role} ${m.id}\n`);
    for (const p of m.parts) {
      if (p.type === 'text') out(`  ${p.text.split('\n')[0]?.slice(0, 100)}\n`);
      else if (p.type === 'tool') out(`  [${p.tool} ${p.state}${p.error ? `: ${p.error.code}` : ''}] ${p.id}\n`);
      else if (p.type === 'patch') out(`  patch ${p.hash.slice(0, 10)} ${p.files.join(', ')}\n`);
    }
  }
  return 0;
}

/** How many positionals (ID, MESSAGE) each `sessions` verb needs: checked before the data folder is opened. */
const VERB_ARGS: Record<string, number> = { list: 0, show: 1, context: 1, revert: 2, unrevert: 1, undo: 1, redo: 1 };

async function runSessions(a: Args): Promise<number> {
  const [verb, id, messageId] = a.positional;
  const need = verb !== undefined && Object.hasOwn(VERB_ARGS, verb) ? VERB_ARGS[verb] : undefined;
  if (need === undefined || a.positional.length - 1 < need || (verb === 'list' && !str(a, 'dir'))) {
    err(`${commandUsage('sessions')}\n`);
    return 2;
  }
  const svc = await openService(a);
  if (!svc) return 1;
  try {
    const opts = { force: a.flags.get('force') === true, preview: a.flags.get('preview') === true };
    const report = (
      r: Result<{
        restored: string[];
        deleted: string[];
        skipped: string[];
        conflicts: { path: string }[];
        unrestorable?: string[];
      }>,
    ): number => {
      if (failed(r)) return 1;
      if (r.value.unrestorable?.length)
        out(
          `NOT restored (the agent changed the repository's own git folder; Landfall keeps no copy of it — check these by hand): ${r.value.unrestorable.join(', ')}\n`,
        );
      if (opts.preview) out('preview — nothing was written\n');
      out(
        `restored: ${r.value.restored.join(', ') || '-'}\ndeleted: ${r.value.deleted.join(', ') || '-'}\nskipped: ${r.value.skipped.join(', ') || '-'}\n`,
      );
      if (r.value.conflicts.length > 0)
        out(
          `conflicts (changed since Landfall last wrote them; kept unless --force): ${r.value.conflicts.map((c) => c.path).join(', ')}\n`,
        );
      return 0;
    };
    switch (verb) {
      case 'list': {
        const dir = str(a, 'dir');
        if (!dir) {
          err(`${commandUsage('sessions')}\n`);
          return 2;
        }
        const p = await svc.openProject(dir);
        if (failed(p)) return 1;
        for (const s of svc.listSessions(p.value.id))
          out(`${s.id}  ${new Date(s.updated).toISOString()}  ${s.title}${s.revert ? ' (reverted)' : ''}\n`);
        return 0;
      }
      case 'show':
        return id ? showSession(svc, id) : 2;
      case 'context':
        return id ? showContext(svc, id, a) : 2;
      case 'revert':
        return id && messageId ? report(await svc.revert(id, messageId, str(a, 'part'), opts)) : 2;
      case 'unrevert':
        return id ? report(await svc.unrevert(id)) : 2;
      case 'undo': {
        if (!id) return 2;
        const r = await svc.undo(id, opts);
        const code = report(r);
        if (r.ok) out(`${opts.preview ? 'would undo' : 'undone'} prompt: ${r.value.text}\n`);
        return code;
      }
      case 'redo':
        return id ? report(await svc.redo(id, opts)) : 2;
      default:
        err(`${commandUsage('sessions')}\n`);
        return 2;
    }
  } finally {
    await svc.close();
  }
}

/** `sessions context ID [--step N] [--json]` (cli/context.ts). Exit 2 for a --step that is not a whole number. */
function showContext(svc: AgentService, id: string, a: Args): number {
  const raw = str(a, 'step');
  const step = raw === undefined ? undefined : Number(raw);
  if (step !== undefined && !Number.isInteger(step)) {
    err(`landfall: --step takes a request number (1, 2, …), not "${raw}"\n${commandUsage('sessions')}\n`);
    return 2;
  }
  const view = svc.context.view(id, step);
  if (failed(view)) return 1;
  out(`${a.flags.has('json') ? JSON.stringify(view.value, null, 2) : formatContext(view.value)}\n`);
  return 0;
}

/** Entry point for the dispatcher (host/cli.ts). */
export async function run(command: string, args: string[]): Promise<number> {
  const a = parse(args);
  try {
    if (command === 'run') return await runPrompt(a);
    if (command === 'replay') return await runReplay(a);
    return await runSessions(a);
  } finally {
    line.clear(); // the terminal is left with no progress line on it
  }
}
