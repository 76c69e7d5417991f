/**
 * The pure parts of the LSP layer: the report (errors only, 20 per file, 1-based positions, other files, plain
 * words for timeouts and unavailable servers), settings answers (never null), document end positions, the
 * catalog with user settings, and root / binary discovery on real temp folders.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { findRoot, resolveCommand, tsserverPath } from './discover';
import { answerConfiguration, endPosition } from './protocol';
import { buildReport, relPath } from './report';
import { buildCatalog, serversFor, timeoutsFor, BUILTIN_SERVERS } from './servers';

const root = '/proj';
const diag = (line: number, col: number, severity: 1 | 2 | 3 | 4, message: string, code?: number): LspDiagnostic => ({
  range: { start: { line, character: col }, end: { line, character: col + 1 } },
  severity,
  message,
  source: 'typescript',
  ...(code === undefined ? {} : { code }),
});

describe('buildReport', () => {
  it('lists only errors, 1-based, sorted, inside a block that says the edit succeeded; metadata keeps every severity', () => {
    const r = buildReport(
      root,
      [
        {
          absPath: '/proj/src/a.ts',
          serverId: 'typescript',
          status: 'fresh',
          ms: 5,
          diagnostics: [
            diag(4, 2, 1, 'late'),
            diag(0, 0, 2, 'a warning'),
            diag(1, 13, 1, "Type 'number' is not\n  assignable", 2322),
          ],
        },
      ],
      [],
    );
    expect(r.text).toBe(
      [
        '<diagnostics>',
        'The edit itself succeeded and is on disk; language-server diagnostics for the files as they are now:',
        'Errors in src/a.ts (typescript):',
        "  2:14 Type 'number' is not assignable [TS2322]",
        '  5:3 late',
        '</diagnostics>',
      ].join('\n'),
    );
    expect(r.diagnostics['src/a.ts']!.map((d) => [d.line, d.col, d.severity])).toEqual([
      [5, 3, 1],
      [1, 1, 2],
      [2, 14, 1],
    ]);
  });

  it('caps a file at 20 errors with "… and N more"', () => {
    const many = Array.from({ length: 23 }, (_, i) => diag(i, 0, 1, `e${i}`));
    const lines = buildReport(
      root,
      [{ absPath: '/proj/a.ts', serverId: 'typescript', status: 'fresh', ms: 1, diagnostics: many }],
      [],
    ).text.split('\n');
    expect(lines.filter((l) => /^ {2}\d+:\d+ e\d+$/.test(l))).toHaveLength(20);
    expect(lines).toContain('  … and 3 more');
  });

  it('says plainly when a server timed out, is unavailable, broken or crashed — never "no errors"', () => {
    const base = { diagnostics: [], ms: 3000 };
    const text = buildReport(
      root,
      [
        { ...base, absPath: '/proj/a.ts', serverId: 'typescript', status: 'timeout' },
        {
          ...base,
          absPath: '/proj/b.py',
          serverId: 'pyright',
          status: 'unavailable',
          reason: 'language server "pyright-langserver" is not installed',
        },
        { ...base, absPath: '/proj/c.sh', serverId: 'bash', status: 'broken' },
        { ...base, absPath: '/proj/d.yaml', serverId: 'yaml', status: 'crashed' },
      ],
      [],
    ).text;
    expect(text).toContain(
      'a.ts: typescript gave no diagnostics within 3000 ms (timed out) — errors may exist that are not listed.',
    );
    expect(text).toContain('b.py: diagnostics unavailable — language server "pyright-langserver" is not installed.');
    expect(text).toContain(
      'c.sh: diagnostics unavailable — the bash language server failed repeatedly and is turned off.',
    );
    expect(text).toContain(
      'd.yaml: the yaml language server crashed before answering; no diagnostics for this change.',
    );
    expect(text).not.toContain('No errors');
  });

  it('lists at most 5 other files with errors, skipping clean ones, and keeps them out of the metadata', () => {
    const others = Array.from({ length: 7 }, (_, i) => ({
      absPath: `/proj/o${i}.ts`,
      serverId: 'typescript',
      diagnostics: [diag(0, 0, 1, `broken ${i}`)],
    }));
    others.push({ absPath: '/proj/clean.ts', serverId: 'typescript', diagnostics: [diag(0, 0, 2, 'only a warning')] });
    const r = buildReport(
      root,
      [{ absPath: '/proj/a.ts', serverId: 'typescript', status: 'fresh', ms: 1, diagnostics: [] }],
      others,
    );
    expect(r.text).toContain('No errors in a.ts (typescript).');
    expect(r.text.match(/^Errors in o\d\.ts/gm)).toHaveLength(5);
    expect(r.text).toContain('… and 2 more files with errors');
    expect(r.text).not.toContain('clean.ts');
    expect(Object.keys(r.diagnostics)).toEqual(['a.ts']);
  });

  it('is empty when no server serves the files', () => {
    expect(buildReport(root, [], [])).toEqual({ text: '', diagnostics: {} });
  });
});

describe('protocol helpers', () => {
  it('answers settings requests with an object or value per item, never null', () => {
    const settings = { yaml: { validate: true, schemaStore: { enable: false } } };
    expect(
      answerConfiguration(settings, [
        { section: 'yaml' },
        { section: 'yaml.validate' },
        { section: 'html' },
        { section: 'yaml.x.y' },
        {},
      ]),
    ).toEqual([settings.yaml, true, {}, {}, settings]);
  });

  it('computes the end position over \\n, \\r\\n and \\r line breaks in UTF-16 units', () => {
    expect(endPosition('')).toEqual({ line: 0, character: 0 });
    expect(endPosition('ab\ncd')).toEqual({ line: 1, character: 2 });
    expect(endPosition('a\r\nb\rc\n')).toEqual({ line: 3, character: 0 });
    expect(endPosition('x\n😀é')).toEqual({ line: 1, character: 3 });
  });
});

describe('catalog and settings', () => {
  it('has the required servers and derives per-server timeouts from measured latency', () => {
    expect(BUILTIN_SERVERS.map((s) => s.id)).toEqual(['typescript', 'pyright', 'json', 'css', 'html', 'yaml', 'bash']);
    const ts = timeoutsFor(BUILTIN_SERVERS[0]!);
    const bash = timeoutsFor(BUILTIN_SERVERS[6]!);
    expect(ts.changeMs).toBe(3000);
    expect(bash.changeMs).toBe(4160);
    expect(timeoutsFor(BUILTIN_SERVERS[0]!, 2).changeMs).toBe(6000);
  });

  it('turns servers off and adds user servers; bad settings are invalid_input', () => {
    const c = buildCatalog({
      disabled: ['yaml'],
      servers: [{ id: 'lua', command: ['lua-language-server'], extensions: ['.lua'], rootMarkers: ['.luarc.json'] }],
    });
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(serversFor(c.value, '/p/a.yaml')).toEqual([]);
    expect(serversFor(c.value, '/p/x.LUA').map((s) => [s.id, s.command.bin, s.rootMarkers])).toEqual([
      ['lua', 'lua-language-server', ['.luarc.json']],
    ]);
    expect(serversFor(c.value, '/p/a.tsx').map((s) => s.id)).toEqual(['typescript']);
    expect(serversFor(c.value, '/p.d/Makefile')).toEqual([]);
    const bad = buildCatalog({ servers: [{ id: 'x', command: [], extensions: ['.x'] }] });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('invalid_input');
  });
});

describe('discovery on real folders', () => {
  const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-lsp-unit-')));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('takes the nearest marker below the project root, so monorepo packages get their own root', () => {
    mkdirSync(path.join(tmp, 'packages/web/src/deep'), { recursive: true });
    writeFileSync(path.join(tmp, 'package.json'), '{}');
    writeFileSync(path.join(tmp, 'packages/web/tsconfig.json'), '{}');
    const markers = ['tsconfig.json', 'package.json'];
    expect(findRoot(path.join(tmp, 'packages/web/src/deep/a.ts'), tmp, markers)).toBe(path.join(tmp, 'packages/web'));
    expect(findRoot(path.join(tmp, 'tools/b.ts'), tmp, markers)).toBe(tmp);
    // Never above the project root, even when a marker exists there.
    expect(findRoot(path.join(tmp, 'packages/web/src/a.ts'), path.join(tmp, 'packages/web/src'), markers)).toBe(
      path.join(tmp, 'packages/web/src'),
    );
    expect(findRoot(path.join(tmp, 'x.json'), tmp, [])).toBe(tmp);
  });

  it("prefers the project's node_modules/.bin (folder trusted), then the bundled package, then PATH; else unavailable", () => {
    const bin = path.join(tmp, 'node_modules/.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(tmp, 'own-server.js'), '#!/usr/bin/env node\n');
    symlinkSync('../../own-server.js', path.join(bin, 'yaml-language-server'));
    chmodSync(path.join(tmp, 'own-server.js'), 0o755);
    const yaml = BUILTIN_SERVERS.find((s) => s.id === 'yaml')!;
    const untrusted = resolveCommand(yaml.command, path.join(tmp, 'packages/web'), tmp);
    expect(untrusted.ok && [untrusted.value.source, untrusted.value.passedOver]).toEqual([
      'bundled',
      path.join(bin, 'yaml-language-server'),
    ]);
    const project = resolveCommand(yaml.command, path.join(tmp, 'packages/web'), tmp, true);
    expect(project.ok && [project.value.source, project.value.command, project.value.args]).toEqual([
      'project',
      process.execPath,
      [path.join(tmp, 'own-server.js'), '--stdio'],
    ]);
    const pyright = BUILTIN_SERVERS.find((s) => s.id === 'pyright')!;
    const bundled = resolveCommand(pyright.command, tmp, tmp);
    expect(bundled.ok && bundled.value.source).toBe('bundled');
    expect(bundled.ok && bundled.value.args[0]).toMatch(/node_modules\/pyright\/langserver\.index\.js$/);
    const sh = resolveCommand({ bin: 'sh', args: [] }, tmp, tmp);
    expect(sh.ok && sh.value.source).toBe('path');
    const none = resolveCommand({ bin: 'landfall-no-such-server', args: [] }, tmp, tmp);
    expect(none.ok ? 'ok' : none.error.code).toBe('unavailable');
  });

  it("uses the project's TypeScript only when it ships tsserver.js (TypeScript 7 does not)", () => {
    const ts7 = path.join(tmp, 'ts7');
    mkdirSync(path.join(ts7, 'node_modules/typescript/lib'), { recursive: true });
    expect(tsserverPath(ts7, ts7)).toMatch(/node_modules\/typescript\/lib\/tsserver\.js$/);
    expect(tsserverPath(ts7, ts7)!.startsWith(ts7)).toBe(false);
    writeFileSync(path.join(ts7, 'node_modules/typescript/lib/tsserver.js'), '');
    expect(tsserverPath(ts7, ts7, true)).toBe(path.join(ts7, 'node_modules/typescript/lib/tsserver.js'));
    expect(tsserverPath(ts7, ts7, false)!.startsWith(ts7)).toBe(false);
  });
});

describe('relPath', () => {
  it('a file whose name starts with ".." inside the root is still shown root-relative; a file outside stays absolute', () => {
    expect(relPath('/p', '/p/..hidden/x.ts')).toBe('..hidden/x.ts');
    expect(relPath('/p', '/p/src/a.ts')).toBe('src/a.ts');
    expect(relPath('/p', '/q/a.ts')).toBe('/q/a.ts');
  });
});

describe('findRoot in a folder whose name starts with ".."', () => {
  it('the nearest marker is found (the folder is inside the project, not above it)', () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-lsp-dots-')));
    try {
      mkdirSync(path.join(root, '..pkg', 'src'), { recursive: true });
      writeFileSync(path.join(root, '..pkg', 'package.json'), '{}');
      expect(findRoot(path.join(root, '..pkg', 'src', 'a.ts'), root, ['package.json'])).toBe(path.join(root, '..pkg'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
