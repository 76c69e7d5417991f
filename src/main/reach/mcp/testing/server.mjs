// A real MCP server for the tests, written with the SDK's server side. Over stdio when run as a script
// (`node server.mjs`); `makeServer()` is also used over Streamable HTTP in-process (http-server.ts).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export function makeServer() {
  const server = new McpServer({ name: 'landfall-test', version: '1.0.0' });
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  server.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } }, ({ text: t }) =>
    text(`echo: ${t}`),
  );
  server.registerTool('fail', { description: 'Always fails' }, () => ({
    isError: true,
    content: [{ type: 'text', text: 'the thing is broken' }],
  }));
  server.registerTool('slow', { description: 'Never answers' }, () => new Promise(() => undefined));
  server.registerTool('big', { description: '10 MB of text' }, () => text('x'.repeat(10 * 1024 * 1024)));
  server.registerTool('image', { description: 'An image and a text resource' }, () => ({
    content: [
      { type: 'image', data: Buffer.from('png').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///notes.txt', text: 'resource text' } },
    ],
  }));
  server.registerTool('env', { description: 'The environment variable names' }, () =>
    text(JSON.stringify(Object.keys(process.env).sort())),
  );
  server.registerTool(
    'environ',
    {
      description:
        'Reads every start-up environment /proc shows (and those of the pids given); says which held a needle',
      inputSchema: { needles: z.array(z.string()), pids: z.array(z.number()) },
    },
    ({ needles, pids }) => text(JSON.stringify(readEnvirons(needles, pids))),
  );
  server.registerTool('crash', { description: 'Exits the process' }, () => process.exit(3));
  // The sleeper's argument names it from outside (in its own PID namespace the server's pids mean nothing there).
  server.registerTool('spawn', { description: 'Starts a grandchild that sleeps; answers its sleep argument' }, () => {
    const arg = `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    spawn('sleep', [arg], { stdio: 'ignore' });
    return text(arg);
  });
  server.registerTool('grow', { description: 'Adds the tool late' }, () => {
    server.registerTool('late', { description: 'Added later' }, () => text('late tool'));
    return text('added');
  });
  return server;
}

/** The reads an MCP server could try: every pid /proc lists, pid 1, its parent, and the pids named (outer ones). */
export function readEnvirons(needles, pids) {
  const visible = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  const paths = [
    ...visible.map((p) => `/proc/${p}/environ`),
    '/proc/1/environ',
    `/proc/${process.ppid}/environ`,
    `/proc/self/../${process.ppid}/environ`,
    ...pids.map((p) => `/proc/${p}/environ`),
  ];
  const leaked = [];
  for (const file of paths) {
    try {
      const bytes = readFileSync(file, 'latin1');
      if (needles.some((n) => bytes.includes(n))) leaked.push(file);
    } catch {
      // not there, or not ours
    }
  }
  return { attempts: paths.length, leaked, visible: visible.map(Number) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await makeServer().connect(new StdioServerTransport());
}
