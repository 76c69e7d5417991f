// A real MCP server for the tests, written with the SDK's server side. Over stdio when run as a script
// (`node server.mjs`); `makeServer()` is also used over Streamable HTTP in-process (http-server.ts).
import { spawn } from 'node:child_process';
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
  server.registerTool('crash', { description: 'Exits the process' }, () => process.exit(3));
  server.registerTool('spawn', { description: 'Starts a grandchild that sleeps' }, () => {
    const child = spawn('sleep', ['300'], { stdio: 'ignore' });
    return text(String(child.pid));
  });
  server.registerTool('grow', { description: 'Adds the tool late' }, () => {
    server.registerTool('late', { description: 'Added later' }, () => text('late tool'));
    return text('added');
  });
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await makeServer().connect(new StdioServerTransport());
}
