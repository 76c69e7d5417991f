import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../tools/types';
import { startServer } from './testing/servers';
import type { TestServer } from './testing/servers';
import { webfetchTool } from './tool';

let server: TestServer;
let cert: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webfetch-tls-'));
  const key = path.join(dir, 'key.pem');
  const crt = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=secure.test', '-addext', 'subjectAltName=DNS:secure.test', '-keyout', key, '-out', crt,
  ], { stdio: 'ignore' }); // prettier-ignore
  cert = readFileSync(crt, 'utf8');
  server = await startServer(
    '127.0.0.1',
    { '/doc': { headers: { 'content-type': 'text/markdown' }, body: '# Secure' } },
    { key: readFileSync(key, 'utf8'), cert },
  );
});

afterAll(() => server.close());

const ctx: ToolContext = {
  root: os.tmpdir(),
  sessionId: 'ses_tls',
  observed: { record: () => undefined, get: () => undefined, forget: () => undefined },
};
const resolve = async (host: string) => {
  if (host !== 'secure.test' && host !== 'other.test') throw new Error(`unknown ${host}`);
  return [{ address: '127.0.0.1', family: 4 as const }];
};

describe('webfetch over https to the checked address', () => {
  it('sends the name as TLS server name and Host, and checks the certificate against the name', async () => {
    const tool = webfetchTool({ allowHosts: () => ['secure.test'], resolve, ca: cert });
    const r = await tool.execute({ url: `https://secure.test:${server.port}/doc` }, ctx);
    expect(r.ok && r.output.endsWith('\n\n# Secure')).toBe(true);
    expect(server.hits).toEqual([{ path: '/doc', host: `secure.test:${server.port}`, servername: 'secure.test' }]);
  });

  it('refuses a certificate that does not name the host asked for', async () => {
    const tool = webfetchTool({ allowHosts: () => ['other.test'], resolve, ca: cert });
    const r = await tool.execute({ url: `https://other.test:${server.port}/doc` }, ctx);
    expect(r.ok ? 'ok' : `${r.error.code} ${r.error.message}`).toMatch(/^unavailable .*other\.test/);
    expect(server.hits).toHaveLength(1);
  });
});
