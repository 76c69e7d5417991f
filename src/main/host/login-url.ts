/**
 * Re-issuing the web host's one-time login URL while `npm run serve` runs: the first URL works once, so a second
 * browser, a cleared localStorage or a lost tab needs a new one without restarting the host (and its turns).
 * Two ways, both printed at start (`howToReissue`):
 *   - on the host's terminal, Enter (an empty line) or `url` prints a fresh URL;
 *   - for a host with no terminal (started in the background, under a service manager), `kill -USR2 <pid>` does
 *     the same — `<pid>` is this process's own id, printed with the hint (the `tsx` wrapper in front of it does
 *     not pass USR2 on).
 * Each URL carries a new one-time token (web.ts `issueUrl`); URLs printed earlier keep working until used. The
 * token only ever goes to this process's stdout, never to a file.
 */
import { createInterface } from 'node:readline';

/** The signal that prints a fresh URL (USR1 is Node's debugger signal). */
export const REISSUE_SIGNAL = 'SIGUSR2';

/** The start-up lines saying how to get another login URL (`pid`: the process to signal). */
export function howToReissue(pid: number): string {
  return `Need another login URL (a second browser, a lost tab)? Press Enter here, or run: kill -USR2 ${pid}`;
}

/** The printed block around one fresh URL. */
export function reissuedText(url: string): string {
  return `A new one-time login URL (it works once; earlier ones still work until used):\n\n  ${url}\n`;
}

/**
 * Prints a fresh login URL (`issue()`, via `print`) for every empty or `url` line read from `input` (the host's
 * stdin; null when it has none) and for every REISSUE_SIGNAL this process receives; any other line gets a short
 * hint. Returns the function that stops listening (closes the line reader, removes the signal handler).
 */
export function reissueLoginUrl(
  input: NodeJS.ReadableStream | null,
  issue: () => string,
  print: (text: string) => void,
): () => void {
  const reissue = (): void => print(reissuedText(issue()));
  const lines = input ? createInterface({ input, terminal: false }) : null;
  lines?.on('line', (line) => {
    const word = line.trim().toLowerCase();
    if (word === '' || word === 'url') reissue();
    else print('Press Enter for a new login URL, or Ctrl+C to stop the host.');
  });
  process.on(REISSUE_SIGNAL, reissue);
  return () => {
    lines?.close();
    process.off(REISSUE_SIGNAL, reissue);
  };
}
