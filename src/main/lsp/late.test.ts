/**
 * Diagnostics that come after the wait for them timed out (a busy machine, a cold server): afterWrite returns at
 * the timeout saying so, and `onLate` later hands over the real server's diagnostics of that file — the tool card
 * updates with them. The JSON language server is a real process; the wait is cut to 1 ms so it always times out.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LspManager } from './manager';
import type { DiagnosticsReport } from './hook';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-late-')));
const created = LspManager.create({ root, timeoutScale: 2, waitMs: 1, log: () => undefined });
if (!created.ok) throw new Error(created.error.message);
const manager = created.value;

afterAll(async () => {
  await manager.shutdown();
  await rm(root, { recursive: true, force: true });
});

describe('late diagnostics', () => {
  it('a timed-out wait reports the timeout now and the diagnostics when they come', async () => {
    const abs = path.join(root, 'settings.json');
    await writeFile(abs, '{"a": 1,,}\n');
    const waiting: string[][] = [];
    let late!: (r: DiagnosticsReport) => void;
    const arrived = new Promise<DiagnosticsReport>((resolve) => (late = resolve));
    const now = await manager.afterWrite([abs], {
      reportOtherFiles: false,
      onWaiting: (servers) => waiting.push(servers),
      onLate: late,
    });
    expect(waiting).toEqual([['json']]);
    expect(now.text).toMatch(/settings\.json: json gave no diagnostics within \d+ ms \(timed out\)/);
    expect(now.diagnostics['settings.json']).toEqual([]);
    const report = await arrived;
    expect(report.diagnostics['settings.json']?.length).toBeGreaterThan(0);
    expect(report.diagnostics['settings.json']?.[0]).toMatchObject({ file: 'settings.json', line: 1, severity: 1 });
    expect(report.text).toContain('Errors in settings.json (json):');
  });
});
