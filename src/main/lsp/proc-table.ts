/**
 * Reading the process table (Linux /proc) to check that server processes are really gone. Used by tests and
 * the benchmark; on systems without /proc it answers "nothing found".
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A live (non-zombie) process: pid, parent pid, process group id, and its command name. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  comm: string;
}

/** Every live process in /proc (zombies, state Z, are already dead and excluded). */
export function liveProcesses(): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Format: pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(')');
      const [state, ppid, pgrp] = stat.slice(close + 2).split(' ');
      if (state === 'Z' || state === 'X') continue;
      out.push({
        pid: Number(name),
        ppid: Number(ppid),
        pgid: Number(pgrp),
        comm: stat.slice(stat.indexOf('(') + 1, close),
      });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Live processes belonging to any of the given process groups (a server and everything it spawned). */
export function processesInGroups(pgids: number[]): ProcEntry[] {
  const wanted = new Set(pgids);
  return liveProcesses().filter((p) => wanted.has(p.pgid));
}
