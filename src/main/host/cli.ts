/**
 * The command line dispatcher (`npm run landfall -- <command> …`, or `bin/landfall.mjs <command> …`).
 * It maps a command name to a module under ./cli/ and hands it the remaining arguments; the module prints its
 * result and returns the process exit code. Modules are imported lazily so `landfall read` does not load
 * SQLite or the agent.
 *
 * To add commands: one line in COMMANDS — `name: () => import('./cli/your-module')` (several names may share a
 * module; it receives the command name). A module exports `run(command: string, args: string[]): Promise<number>`.
 */
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
  run: () => import('./cli/session'), replay: () => import('./cli/session'), sessions: () => import('./cli/session'),
};

function usage(): string {
  return [
    'usage: landfall <command> [options]',
    `commands: ${Object.keys(COMMANDS).join(', ')}`,
    'tools:  landfall read  --dir D --path P [--offset N] [--limit N]',
    '        landfall edit  --dir D --path P --old TEXT --new TEXT [--replace-all]   (or --old-file F / --new-file F)',
    '        landfall write --dir D --path P (--content TEXT | --content-file F | --content-file -) [--force]',
    '        landfall list  --dir D [--path P]   glob --dir D --pattern G   grep --dir D --pattern RE [--include G]',
    'Each tool command prints the outcome as JSON; exit code 0 on success, 1 on a refused call, 2 on bad usage.',
  ].join('\n');
}

/** Dispatch `argv` (without node and script). Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${usage()}\n`);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    process.stderr.write(`landfall: unknown command "${command}"\n${usage()}\n`);
    return 2;
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
