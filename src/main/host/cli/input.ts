/**
 * What the command-line tool commands share about their own inputs: text arguments read from a file or stdin,
 * the project folder, and how a bad one is reported. Every bad input is an `invalid_input` failure printed as
 * JSON (exit code 2), never a stack trace; text must be valid UTF-8, because a lossy decoding would write U+FFFD
 * into the user's files without anyone noticing.
 */
import { promises as fsp } from 'node:fs';
import { fail, ok, type LandfallError, type Result } from '../../../shared/errors';
import { realRoot } from '../../fs/workspace';

/** Decode `bytes` as strict UTF-8 (`what` names the input in the error). Error: `invalid_input`. */
function strictUtf8(bytes: Buffer, what: string): Result<string> {
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail(
      'invalid_input',
      `${what} is not valid UTF-8 text.`,
      `Convert ${what} to UTF-8 first (e.g. iconv -t UTF-8).`,
    );
  }
}

/**
 * The text of `file` (a path, or '-' for stdin), strictly UTF-8 (a leading BOM is kept as U+FEFF, which the
 * tools read as "write a BOM"). Errors: `invalid_input` (unreadable file, not UTF-8).
 */
export async function readTextInput(file: string): Promise<Result<string>> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return strictUtf8(Buffer.concat(chunks), 'stdin');
  }
  try {
    return strictUtf8(await fsp.readFile(file), file);
  } catch (e) {
    return fail(
      'invalid_input',
      `Cannot read ${file}: ${(e as Error).message}`,
      'Name an existing, readable file (or - for stdin).',
      { errno: (e as NodeJS.ErrnoException).code },
    );
  }
}

/** The real path of the project folder `dir`. Error: `invalid_input` when it does not exist or is not a folder. */
export async function projectRoot(dir: string): Promise<Result<string>> {
  try {
    const real = await realRoot(dir);
    if ((await fsp.stat(real)).isDirectory()) return ok(real);
  } catch {
    // reported below
  }
  return fail(
    'invalid_input',
    `The project folder ${dir} does not exist or is not a folder.`,
    'Pass --dir with an existing folder.',
  );
}

/** Print `error` as the JSON outcome every tool command prints; returns exit code 2 (bad usage). */
export function printUsageError(error: LandfallError): number {
  process.stdout.write(
    `${JSON.stringify({ ok: false, error, output: `Error (${error.code}): ${error.message}\n${error.hint}` }, null, 2)}\n`,
  );
  return 2;
}
