/**
 * The command line dispatcher (`npm run landfall -- <command> …`, or `bin/landfall.mjs <command> …`).
 * It maps a command name to a module under ./cli/ and hands it the remaining arguments; the module prints its
 * result and returns the process exit code. Modules are imported lazily so `landfall read` does not load
 * SQLite or the agent.
 *
 * To add commands: one line in COMMANDS — `name: () => import('./cli/your-module')` (several names may share a
 * module; it receives the command name) — and its usage, flags and example in COMMAND_HELP (./cli/help.ts).
 * A module exports `run(command: string, args: string[]): Promise<number>`.
 */
import { commandUsage, hasHelp, overview } from './cli/help';

export interface CliModule {
  /** Run `command` with its arguments (everything after the command name). Returns the exit code. */
  run(command: string, args: string[]): Promise<number>;
}

type Loader = () => Promise<CliModule>;

const tools: Loader = () => import('./cli/tools');

const COMMANDS: Record<string, Loader> = {
  read: tools,
  edit: tools,
  write: tools,
  list: tools,
  glob: tools,
  grep: tools,
  apply_patch: () => import('./cli/patch'),
  run: () => import('./cli/session'),
  replay: () => import('./cli/session'),
  sessions: () => import('./cli/session'),
};

/** True when the arguments ask for help: `--help` anywhere, or `-h` first. */
function asksHelp(args: string[]): boolean {
  return args.includes('--help') || args[0] === '-h';
}

/**
 * Dispatch `argv` (without node and script). Returns the exit code. `landfall --help` lists every command with its
 * flags and an example; `landfall <command> --help` and `landfall help <command>` print that command's usage.
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? rest[0] : undefined;
    if (topic !== undefined && !hasHelp(topic)) {
      process.stderr.write(`landfall: unknown command "${topic}"\n${overview()}\n`);
      return 2;
    }
    process.stdout.write(`${topic ? commandUsage(topic) : overview()}\n`);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    process.stderr.write(`landfall: unknown command "${command}"\n${overview()}\n`);
    return 2;
  }
  if (asksHelp(rest) && hasHelp(command)) {
    process.stdout.write(`${commandUsage(command)}\n`);
    return 0;
  }
  const mod = await load();
  return mod.run(command, rest);
}

// Run when executed directly (tsx src/main/host/cli.ts …), not when imported by a test.
const invoked = process.argv[1] ?? '';
if (/host[\\/]cli\.(ts|js|mjs)$/.test(invoked)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`landfall: ${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 70;
    },
  );
}
