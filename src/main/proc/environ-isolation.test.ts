/**
 * Keys in a start-up environment (issue 12 §1, hostile input): Linux lets a process read the environment any
 * process of the same user STARTED with (/proc/<pid>/environ). A real parent is started with fake provider keys in
 * its environment, under a shell that has them too (environ-child.ts). It runs every way we could think of to reach
 * them: the bash tool (ATTACKS), a stand-in language server spawned the language servers' way, and the SDK test MCP
 * server over stdio. Held: no key in any output, and neither Landfall's nor the shell's pid listed or signallable.
 * Prints attempts / held per kind. Then the same probe, commands and servers as user `nobody` (the non-root path: a user
 * namespace mapping only the user's own uid), run only when this suite runs as root.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../reach/mcp/testing/environ-child.ts', import.meta.url));
const KEYS = {
  OPENAI_API_KEY: `sk-proj-${randomBytes(16).toString('hex')}`,
  LANDFALL_API_KEY: randomBytes(20).toString('hex'),
  DEPLOY_TOKEN: randomBytes(18).toString('hex'),
};
const NEEDLES = Object.values(KEYS);

interface ChildResult {
  ns: { active: boolean; reason: string };
  outer: { landfall: number; shell: number };
  bash: { command: string; output: string }[];
  lsp: string;
  mcp: string;
}

/** Start sh → node (the child) with the keys in both environments; resolves with the child's RESULT line. */
/** True when every folder from `/` down to `dir` lets other users pass (o+x): `nobody` can load the checkout's code. */
function reachableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

function runChild(as?: { uid: number; gid: number; home: string }): Promise<ChildResult> {
  const line = `"${process.execPath}" --import tsx "${CHILD}" '${JSON.stringify(NEEDLES)}'; exit $?`;
  const env = { ...process.env, ...KEYS, ...(as ? { HOME: as.home } : {}) };
  const child = spawn('/bin/sh', ['-c', line], {
    env,
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const m = /^RESULT (.*)$/m.exec(out);
      if (code === 0 && m) resolve(JSON.parse(m[1] as string) as ChildResult);
      else reject(new Error(`child ended ${code}: ${err.slice(-2000)}`));
    }),
  );
}

/** Whether one bash command's output held (see the module docstring). */
function bashHeld(r: ChildResult, command: string, output: string): boolean {
  if (NEEDLES.some((n) => output.includes(n))) return false;
  const listing = command.startsWith('ls /proc') || command.startsWith('ps ') || command.includes('cgroup.procs');
  const words = new Set(output.split(/\s+/));
  if (listing && (words.has(String(r.outer.landfall)) || words.has(String(r.outer.shell)))) return false;
  if (command.startsWith('kill -0')) return (output.match(/No such process/g) ?? []).length === 2;
  return true;
}

/** A server's own report: every read it tried is an attempt; held when nothing leaked and no outer pid was visible. */
function serverTally(r: ChildResult, text: string): { attempts: number; held: number; visibleOuter: boolean } {
  const found = JSON.parse(text) as { attempts: number; leaked: string[]; visible: number[] };
  const visibleOuter = found.visible.includes(r.outer.landfall) || found.visible.includes(r.outer.shell);
  return { attempts: found.attempts, held: found.attempts - found.leaked.length, visibleOuter };
}

const lines: string[] = [];
afterAll(() => console.log(`start-up environments: ${lines.join('; ')}`));

describe('no child Landfall starts can read a start-up environment of another process (attempts / held)', () => {
  it('bash commands, a language server and an MCP stdio server find no key, as root', async () => {
    const r = await runChild();
    const leaks = r.bash.filter((b) => !bashHeld(r, b.command, b.output));
    lines.push(`bash ${r.bash.length} attempts / ${r.bash.length - leaks.length} held`);
    const lsp = serverTally(r, r.lsp);
    lines.push(`language server ${lsp.attempts} reads / ${lsp.held} held`);
    const mcp = serverTally(r, r.mcp);
    lines.push(`MCP server ${mcp.attempts} reads / ${mcp.held} held`);
    expect(leaks.map((l) => `${l.command} → ${l.output.slice(0, 300)}`)).toEqual([]);
    expect([lsp.held, lsp.visibleOuter]).toEqual([lsp.attempts, false]);
    expect([mcp.held, mcp.visibleOuter]).toEqual([mcp.attempts, false]);
    expect([r.ns.active, r.ns.reason]).toEqual([true, r.ns.reason]);
  }, 180_000);

  it.skipIf(process.getuid?.() !== 0 || !reachableByOthers(process.cwd()))(
    'as user nobody — the non-root path (runs when the suite runs as root in a checkout other users can reach; as another user the test above is that path)',
    async () => {
      const home = mkdtempSync(path.join(os.tmpdir(), 'landfall-nobody-'));
      chmodSync(home, 0o777);
      try {
        const r = await runChild({ uid: 65534, gid: 65534, home });
        const leaks = r.bash.filter((b) => !bashHeld(r, b.command, b.output));
        const lsp = serverTally(r, r.lsp);
        const mcp = serverTally(r, r.mcp);
        lines.push(
          `as nobody: bash ${r.bash.length} attempts / ${r.bash.length - leaks.length} held, language server ${lsp.attempts} / ${lsp.held}, MCP server ${mcp.attempts} / ${mcp.held}`,
        );
        expect(leaks.map((l) => `${l.command} → ${l.output.slice(0, 300)}`)).toEqual([]);
        expect([lsp.held, lsp.visibleOuter, mcp.held, mcp.visibleOuter]).toEqual([
          lsp.attempts,
          false,
          mcp.attempts,
          false,
        ]);
        expect([r.ns.active, r.ns.reason]).toEqual([true, 'user+pid namespace']);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
