/**
 * Child process for proc/environ-isolation.test.ts: plays Landfall started with provider keys in its own start-up
 * environment (and under a shell that has them too). It runs, the real ways: every bash command of ATTACKS through
 * the bash tool, a stand-in language server through the language servers' spawn (lsp/process.ts) that reads
 * /proc itself, and the SDK test MCP server (server.mjs) over the stdio transport, whose `environ` tool does the
 * same. It prints one line: `RESULT <json>` with each output, for the test to judge.
 * argv: <needles as JSON>
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pidNamespace } from '../../../proc/pid-namespace';
import { bashTool } from '../../../tools/bash';
import { spawnServer, terminateGroup } from '../../../lsp/process';
import { makeWorkspace } from '../../../tools/tool-test-kit';
import { GroupStdioTransport } from '../stdio-transport';

const [needlesJson = '[]'] = process.argv.slice(2);
const needles = JSON.parse(needlesJson) as string[];
/** This process (Landfall) and its parent (the shell that started it): both started with the keys. */
const outer = { landfall: process.pid, shell: process.ppid };

/** Every way a command could reach a start-up environment; {L} and {S} are Landfall's and the shell's pids. */
export const ATTACKS = [
  'cat /proc/$PPID/environ',
  'for f in /proc/[0-9]*/environ; do cat "$f"; done',
  'ps eww -e',
  'ps -ef',
  'cat /proc/1/environ',
  'cat /proc/self/../$PPID/environ /proc/self/../1/environ',
  'ls /proc',
  'cat /proc/{L}/environ /proc/{S}/environ',
  'cat /proc/{L}/task/*/environ /proc/$PPID/task/*/environ',
  'grep -a -r -h . /proc/*/environ',
  'tr "\\0" "\\n" < /proc/$PPID/environ; xargs -0 -n1 < /proc/1/environ',
  'umount /proc 2>&1; cat /proc/*/environ /proc/{L}/environ',
  'umount -l /proc 2>&1; cat /proc/{L}/environ /proc/{S}/environ',
  'd=$(mktemp -d); mount -t proc proc "$d" 2>&1; cat "$d"/*/environ "$d"/{L}/environ',
  "unshare -r sh -c 'umount /proc; umount -l /proc; cat /proc/*/environ /proc/{L}/environ' 2>&1",
  'nsenter -t {L} -a cat /proc/self/environ 2>&1; nsenter -t {L} -m -p cat /proc/{L}/environ 2>&1',
  'cat /proc/1/root/proc/{L}/environ /proc/$PPID/root/proc/{S}/environ',
  'cat /sys/fs/cgroup/cgroup.procs; for p in $(cat /sys/fs/cgroup/cgroup.procs); do cat /proc/$p/environ; done',
  'env; cat /proc/self/environ',
  "python3 -c \"import os; [print(open('/proc/%s/environ' % p,'rb').read()) for p in os.listdir('/proc') if p.isdigit()]\" 2>&1",
  'kill -0 {L} 2>&1; kill -0 {S} 2>&1; ls -l /proc/{L}/ 2>&1',
];

/**
 * Attacks that change mounts run only inside the command's own namespace: without it (a fallback run, or a probe
 * that failed) `umount /proc` as root would unmount the machine's /proc.
 */
const CHANGES_MOUNTS = /\bu?mount\b|\bunshare\b|\bnsenter\b/;

async function bashAttacks(isolated: boolean): Promise<{ command: string; output: string }[]> {
  const ws = makeWorkspace();
  const out: { command: string; output: string }[] = [];
  try {
    for (const template of ATTACKS) {
      if (!isolated && CHANGES_MOUNTS.test(template)) continue;
      const command = template.replaceAll('{L}', String(outer.landfall)).replaceAll('{S}', String(outer.shell));
      const o = await ws.run(bashTool, { command, timeout: 30_000 });
      out.push({ command, output: o.output });
    }
  } finally {
    await ws.cleanup();
  }
  return out;
}

/** A stand-in language server: reads what /proc shows (and the outer pids) and prints what it found. */
const SERVER_JS = `
const fs = require('node:fs');
const [needles, pids] = JSON.parse(process.argv[1]);
const visible = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n));
const paths = [...visible.map((p) => '/proc/' + p + '/environ'), '/proc/1/environ', '/proc/' + process.ppid + '/environ',
  ...pids.map((p) => '/proc/' + p + '/environ')];
const leaked = paths.filter((f) => { try { const b = fs.readFileSync(f, 'latin1'); return needles.some((n) => b.includes(n)); } catch { return false; } });
process.stdout.write(JSON.stringify({ attempts: paths.length, leaked, visible: visible.map(Number) }) + '\\n');
`;

async function languageServer(): Promise<string> {
  const proc = spawnServer(
    {
      command: process.execPath,
      args: ['-e', SERVER_JS, JSON.stringify([needles, [outer.landfall, outer.shell]])],
      env: {},
      source: 'path',
    },
    process.cwd(),
  );
  let text = '';
  proc.child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  await proc.exited;
  await terminateGroup(proc, 1_000);
  return text.trim();
}

async function mcpServer(): Promise<string> {
  const server = path.join(import.meta.dirname, 'server.mjs');
  const transport = new GroupStdioTransport(process.execPath, [server], {}, process.cwd());
  const client = new Client({ name: 'environ-child', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({
      name: 'environ',
      arguments: { needles, pids: [outer.landfall, outer.shell] },
    });
    const content = r.content as { type: string; text?: string }[];
    return content[0]?.text ?? '';
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const ns = pidNamespace();
  const bash = await bashAttacks(ns.active);
  const lsp = await languageServer();
  const mcp = await mcpServer();
  process.stdout.write(`RESULT ${JSON.stringify({ ns, outer, bash, lsp, mcp })}\n`);
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
