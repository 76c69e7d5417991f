/**
 * `landfall apply_patch --dir D (--file patch.txt | --file - | stdin)` — apply one patch to a folder with the
 * patch engine (all or nothing), printing the outcome as JSON: `{ ok: true, title, output, metadata: { files,
 * landed } }` or `{ ok: false, error, output }`. Exit code 0 on success, 1 when the patch is refused (nothing was
 * changed), 2 on bad usage (a missing folder or patch file, a patch that is not UTF-8: an `invalid_input` error).
 *
 * A one-shot run has no session, so no observed versions are checked: running the command is the user's
 * consent, and every hunk must still match the current bytes of its file, so nothing unseen is overwritten. The
 * write is journaled in the data folder's `journal/` (`--data`, else $LANDFALL_DATA_DIR, else ~/.landfall).
 */
import { parseArgs } from 'node:util';
import { dataDirOf, journalDirOf } from '../../fs/data-dir';
import { toolFailure } from '../../tools/types';
import { applyPatch } from '../../tools/apply-patch';
import { printUsageError, projectRoot, readTextInput } from './input';

const USAGE =
  'usage: landfall apply_patch --dir D [--file patch.txt | --file -] [--data DATA]   (no --file: the patch is read from stdin)';

/** Run `apply_patch` with its arguments; prints JSON to stdout and returns the exit code. */
export async function run(_command: string, args: string[]): Promise<number> {
  let values: { dir?: string; file?: string; data?: string };
  try {
    values = parseArgs({
      args,
      options: { dir: { type: 'string' }, file: { type: 'string' }, data: { type: 'string' } },
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(`landfall apply_patch: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.dir === undefined) {
    process.stderr.write(`landfall apply_patch: --dir is required\n${USAGE}\n`);
    return 2;
  }
  const root = await projectRoot(values.dir);
  if (!root.ok) return printUsageError(root.error);
  const text = await readTextInput(values.file ?? '-');
  if (!text.ok) return printUsageError(text.error);
  const result = await applyPatch(text.value, { root: root.value, journalDir: journalDirOf(dataDirOf(values.data)) });
  if (!result.ok) {
    process.stdout.write(`${JSON.stringify(toolFailure(result.error), null, 2)}\n`);
    return 1;
  }
  const { files, landed, summary } = result.value;
  const outcome = {
    ok: true,
    title: `apply_patch ${files.length} file(s)`,
    output: summary,
    metadata: { files, landed },
  };
  process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
  return 0;
}
