/**
 * The Node.js that runs a language server written as a node script (typescript-language-server, pyright, the
 * vscode-langservers, yaml, bash).
 *
 * Under plain Node (`npm run serve`, the command line, tests) that is this process's own binary. Under Electron it
 * cannot be: the packaged app ships with the RunAsNode fuse off (electron-builder.yml), so the app binary ignores
 * ELECTRON_RUN_AS_NODE and would start a second app instead of a server. Electron's utilityProcess is no way out
 * either: it gives a child no stdin (servers speak LSP over stdio), no process group to stop, and servers that
 * fork their own helpers (typescript-language-server forks tsserver with process.execPath) would hit the same
 * fuse. So under Electron a real `node` is used: the first on PATH, else one in the usual install folders (a
 * desktop app started from the Finder or a launcher gets a short PATH without Homebrew, nvm, Volta or fnm).
 * None found → the server is "unavailable" with a hint to install Node.js; diagnostics then say so, never
 * "no errors".
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Folders a desktop session's PATH often lacks, in order of preference. nvm: the newest installed version. */
export function usualNodeFolders(home = os.homedir(), platform = process.platform): string[] {
  if (platform === 'win32') {
    const programFiles = process.env['ProgramFiles'] ?? 'C:\\Program Files';
    return [path.join(programFiles, 'nodejs'), path.join(home, 'AppData', 'Roaming', 'nvm')];
  }
  const nvm = path.join(home, '.nvm', 'versions', 'node');
  let nvmBins: string[] = [];
  try {
    nvmBins = readdirSync(nvm)
      .filter((v) => /^v\d+\.\d+\.\d+$/.test(v))
      .sort((a, b) => compareVersions(b, a))
      .map((v) => path.join(nvm, v, 'bin'));
  } catch {
    // no nvm
  }
  return [
    '/opt/homebrew/bin',
    '/usr/local/bin',
    '/usr/bin',
    path.join(home, '.volta', 'bin'),
    path.join(home, '.local', 'share', 'fnm', 'aliases', 'default', 'bin'),
    ...nvmBins,
  ];
}

function compareVersions(a: string, b: string): number {
  const pa = a.slice(1).split('.').map(Number);
  const pb = b.slice(1).split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/**
 * The node binary for a node-script server, or undefined when there is none. `underElectron` (default: this
 * process runs in Electron) chooses the rule above; `which` looks a name up on PATH; `isExecutable` checks a path.
 */
export function nodeRuntime(
  which: (bin: string) => string | undefined,
  isExecutable: (file: string) => boolean,
  underElectron = process.versions.electron !== undefined,
  folders: () => string[] = usualNodeFolders,
): string | undefined {
  if (!underElectron) return process.execPath;
  const exe = process.platform === 'win32' ? 'node.exe' : 'node';
  return (
    which(exe) ??
    folders()
      .map((d) => path.join(d, exe))
      .find(isExecutable)
  );
}
