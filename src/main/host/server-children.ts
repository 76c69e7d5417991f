/**
 * Test support: the language-server processes a Landfall process started, read from the Linux process table
 * (/proc), so tests can check that the servers `landfall run` or the app started are really gone afterwards. On
 * systems without /proc it finds nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processesInGroups } from '../lsp/proc-table';

/**
 * Process-group ids of live children of `parent` (default: this process) whose command line contains `needle`
 * (e.g. 'vscode-json-language-server'). Servers run in their own process group, so the id names the server and
 * everything it spawned.
 */
export function serverGroups(needle: string, parent = process.pid): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Format: pid (comm) state ppid pgrp …; comm may hold spaces, so split after the last ')'.
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== parent || state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle)) out.push(Number(pgrp));
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
