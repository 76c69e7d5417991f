/**
 * Test support: the language-server processes a Landfall process started, read from the Linux process table
 * (/proc), so tests can check that the servers `landfall run` or the app started are really gone afterwards. On
 * systems without /proc it finds nothing.
 */
import { readFileSync } from 'node:fs';
import { liveProcesses, processesInGroups } from '../lsp/proc-table';

/**
 * Process-group ids of live children of `parent` (default: this process) whose command line contains `needle`
 * (e.g. 'vscode-json-language-server'). Servers run in their own process group, so the id names the server and
 * everything it spawned.
 */
export function serverGroups(needle: string, parent = process.pid): number[] {
  const out: number[] = [];
  for (const p of liveProcesses()) {
    if (p.ppid !== parent) continue;
    try {
      if (readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes(needle)) out.push(p.pgid);
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Waits (polling every 50 ms, at most `ms`) until no live process is left in `pgids`; returns those left. */
export async function waitGroupsGone(pgids: number[], ms = 5_000): Promise<number[]> {
  const until = Date.now() + ms;
  let left = processesInGroups(pgids);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesInGroups(pgids);
  }
  return left.map((p) => p.pid);
}
