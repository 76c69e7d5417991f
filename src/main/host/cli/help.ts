/**
 * The command line's help text, in one place: every command's usage lines, its flags and one example. `landfall
 * --help` prints them all; `landfall <command> --help` (or `landfall help <command>`) prints one; usage errors
 * print the command's entry. Tool commands' bad input is reported by flag: `flagFor` maps the tools' input field
 * names (what the model sees) to the flags a person types.
 */

export interface CommandHelp {
  /** One line per form of the command. */
  usage: string[];
  /** [flag, what it does]. */
  flags: [string, string][];
  example: string;
}

const DIR: [string, string] = ['--dir D', 'the project folder (default: the current folder)'];
const DATA: [string, string] = ['--data DATA', 'the data folder (default: $LANDFALL_DATA_DIR, else ~/.landfall)'];
const JOURNAL: [string, string] = [
  '--data DATA',
  'the data folder whose journal/ keeps the write until it lands (default: $LANDFALL_DATA_DIR, else ~/.landfall)',
];

/** Every command, in the order `--help` lists them. */
export const COMMAND_HELP: Record<string, CommandHelp> = {
  read: {
    usage: ['landfall read --dir D --path P [--offset N] [--limit N]'],
    flags: [
      DIR,
      ['--path P', 'the file, relative to D'],
      ['--offset N', 'first line to show (1-based)'],
      ['--limit N', 'how many lines'],
    ],
    example: 'landfall read --dir . --path src/app.ts --offset 40 --limit 20',
  },
  edit: {
    usage: [
      'landfall edit --dir D --path P (--old TEXT | --old-file F) (--new TEXT | --new-file F) [--replace-all] [--data DATA]',
    ],
    flags: [
      DIR,
      ['--path P', 'the file, relative to D'],
      ['--old TEXT', 'the text to replace (--old-file F: from a file, - for stdin)'],
      ['--new TEXT', 'the replacement (--new-file F: from a file, - for stdin)'],
      ['--replace-all', 'replace every occurrence, not exactly one'],
      JOURNAL,
    ],
    example: "landfall edit --dir . --path src/app.ts --old 'port = 80' --new 'port = 8080'",
  },
  write: {
    usage: [
      'landfall write --dir D --path P (--content TEXT | --content-file F | --content-file -) [--force] [--data DATA]',
    ],
    flags: [
      DIR,
      ['--path P', 'the file, relative to D'],
      ['--content TEXT', 'the whole new content (--content-file F: from a file, - for stdin)'],
      ['--force', 'replace an existing file (the command line cannot know you have read it)'],
      JOURNAL,
    ],
    example: 'landfall write --dir . --path notes/plan.md --content-file draft.md',
  },
  list: {
    usage: ['landfall list --dir D [--path P] [--depth N]'],
    flags: [DIR, ['--path P', 'the folder to list, relative to D'], ['--depth N', 'how many levels deep']],
    example: 'landfall list --dir . --path src --depth 2',
  },
  glob: {
    usage: ['landfall glob --dir D --pattern G [--path P]'],
    flags: [DIR, ['--pattern G', 'a glob, e.g. "src/**/*.ts"'], ['--path P', 'search below this folder of D']],
    example: "landfall glob --dir . --pattern 'src/**/*.test.ts'",
  },
  grep: {
    usage: ['landfall grep --dir D --pattern RE [--include G] [--path P] [--ignore-case]'],
    flags: [
      DIR,
      ['--pattern RE', 'a regular expression'],
      ['--include G', 'only files matching this glob'],
      ['--path P', 'search below this folder of D'],
      ['--ignore-case', 'match regardless of case'],
    ],
    example: "landfall grep --dir . --pattern 'deprecated|legacy' --include '*.ts'",
  },
  apply_patch: {
    usage: [
      'landfall apply_patch --dir D [--file patch.txt | --file -] [--data DATA]   (no --file: the patch is read from stdin)',
    ],
    flags: [
      ['--dir D', 'the project folder (required)'],
      ['--file F', 'the patch (*** Begin Patch … *** End Patch); - for stdin'],
      JOURNAL,
    ],
    example: 'landfall apply_patch --dir . --file fix.patch',
  },
  run: {
    usage: ['landfall run --dir D [--provider ID] [--model M] [--data DATA] [--no-lsp] "prompt"'],
    flags: [
      ['--dir D', 'the project folder (required)'],
      ['--provider ID', 'a provider id from settings.json (default: its defaultProvider)'],
      ['--model M', "the model to use instead of the provider's"],
      DATA,
      ['--no-lsp', "no language servers (by default the settings' `lsp` servers report errors after each edit)"],
    ],
    example: 'landfall run --dir . --provider ollama "add a --verbose flag to the CLI"',
  },
  replay: {
    usage: ['landfall replay --dir D --session FOLDER [--mode recorded|live] [--no-seed] [--force] [--data DATA]'],
    flags: [
      ['--dir D', 'the folder to replay into (created when missing)'],
      ['--session FOLDER', 'a recorded session folder'],
      ['--mode M', 'recorded (default): only the calls that succeeded originally; live: every file call'],
      ['--no-seed', "do not seed D from the recording's files.jsonl first"],
      [
        '--force',
        'seed over files that differ from the recording (they are backed up into DATA/replay-backups/ first; without it the replay refuses)',
      ],
      DATA,
    ],
    example: 'landfall replay --dir /tmp/try --session fixtures/corpus/sessions/aider-requests-863-a4-gpt4o',
  },
  sessions: {
    usage: [
      'landfall sessions list --dir D',
      'landfall sessions show ID',
      'landfall sessions context ID [--step N] [--json]',
      'landfall sessions revert ID MESSAGE [--part P] [--force] [--preview]',
      'landfall sessions unrevert ID',
      'landfall sessions undo ID [--force] [--preview]',
      'landfall sessions redo ID [--force] [--preview]',
    ],
    flags: [
      ['--dir D', 'list: the project whose sessions to list'],
      ['--part P', 'revert: start at this part of MESSAGE'],
      ['--force', "overwrite files you changed after the agent's step"],
      ['--preview', 'show what would change; change nothing'],
      ['--step N', 'context: the Nth model request of the session (default the last)'],
      ['--json', 'context: print the answer as JSON (the exact request, tokens, window, change)'],
      DATA,
    ],
    example: 'landfall sessions revert ses_abc123 msg_def456 --preview',
  },
};

/** `landfall <command>` is known. */
export function hasHelp(command: string): boolean {
  return Object.hasOwn(COMMAND_HELP, command);
}

function flagLines(h: CommandHelp, indent: string): string[] {
  const width = Math.max(...h.flags.map(([f]) => f.length));
  return h.flags.map(([f, text]) => `${indent}${f.padEnd(width)}  ${text}`);
}

/** One command's usage, flags and example (what `landfall <command> --help` prints). */
export function commandUsage(command: string): string {
  const h = COMMAND_HELP[command];
  if (!h) return overview();
  const [first, ...more] = h.usage;
  return [
    `usage: ${first ?? ''}`,
    ...more.map((u) => `       ${u}`),
    'flags:',
    ...flagLines(h, '  '),
    `example: ${h.example}`,
  ].join('\n');
}

/** Every command with its flags and an example (what `landfall --help` prints). */
export function overview(): string {
  const blocks = Object.values(COMMAND_HELP).map((h) =>
    [...h.usage.map((u) => `  ${u}`), ...flagLines(h, '      '), `    example: ${h.example}`].join('\n'),
  );
  return [
    'usage: landfall <command> [flags]        landfall <command> --help: one command',
    '',
    ...blocks.flatMap((b) => [b, '']),
    'Tool commands print their outcome as JSON. Exit code 0 on success, 1 on a refused call, 2 on bad usage.',
  ].join('\n');
}

/** The flag a person types for a tool's input field (`filePath` → `--path`); the field itself when unknown. */
export function flagFor(field: string): string {
  const flags: Record<string, string> = {
    filePath: '--path',
    path: '--path',
    oldString: '--old (or --old-file)',
    newString: '--new (or --new-file)',
    replaceAll: '--replace-all',
    content: '--content (or --content-file)',
    pattern: '--pattern',
    include: '--include',
    ignoreCase: '--ignore-case',
    offset: '--offset',
    limit: '--limit',
    depth: '--depth',
  };
  return flags[field] ?? field;
}
