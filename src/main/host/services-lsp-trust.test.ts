import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TrustStore } from '../reach/trust/store';
import { appLanguageServers } from './services-lsp';

const requireHere = createRequire(import.meta.url);
const BUNDLED_TSLS = path.join(
  path.dirname(requireHere.resolve('typescript-language-server/package.json')),
  'lib/cli.mjs',
);

const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'trust-lsp-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A project whose node_modules/.bin/typescript-language-server writes a marker file (with its arguments) and then
 * runs the real server, so diagnostics still come back when it is allowed to run.
 */
function projectWithOwnServer(): { root: string; marker: string; file: string } {
  const root = path.join(tmp, 'project');
  const bin = path.join(root, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const marker = path.join(tmp, 'marker.txt');
  const script = path.join(bin, 'typescript-language-server');
  writeFileSync(script, `#!/bin/sh\necho "$@" > '${marker}'\nexec '${process.execPath}' '${BUNDLED_TSLS}' "$@"\n`);
  chmodSync(script, 0o755);
  writeFileSync(path.join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true}}\n');
  const file = path.join(root, 'a.ts');
  writeFileSync(file, 'const n: number = "text";\n');
  return { root, marker, file };
}

/** What the report says when a typescript server answered (errors) or ran but was slow (a busy machine). */
const ANSWERED = /a\.ts \(typescript\)|typescript gave no diagnostics within/;

describe("trusted folders: a project's own language server", () => {
  it('does not run before the folder is trusted, runs after, and stops running once trust is revoked', async () => {
    const { root, marker, file } = projectWithOwnServer();
    const trust = TrustStore.open(path.join(tmp, 'trust.json'));
    const lsp = appLanguageServers(
      () => undefined,
      (r) => trust.isTrusted(r),
    );
    const project = { id: 'prj_1', root, name: 'project', lastOpened: 0 };
    const diagnose = async (): Promise<string> => {
      const hook = lsp.hookFor(project)!;
      hook.touch(file);
      return (await hook.afterWrite([file], { reportOtherFiles: false })).text;
    };
    try {
      const before = await diagnose();
      expect(before).toMatch(ANSWERED); // a typescript server ran: Landfall's bundled one
      expect(existsSync(marker)).toBe(false);

      await trust.trust(root);
      expect(await diagnose()).toMatch(ANSWERED);
      expect(readFileSync(marker, 'utf8')).toBe('--stdio\n');

      rmSync(marker);
      expect(await trust.revoke(root)).toBe(true);
      expect(await diagnose()).toMatch(ANSWERED);
      expect(existsSync(marker)).toBe(false);
      expect(TrustStore.open(path.join(tmp, 'trust.json')).list()).toEqual([]);
    } finally {
      await lsp.shutdown();
    }
  });
});
