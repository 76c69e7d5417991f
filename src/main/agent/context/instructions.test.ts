/**
 * Instruction files and change notices, asserted on what the model was sent (AI SDK mock model, real temp
 * folders, real session database): the walk-up order, the global file, the CLAUDE.md fallback, the per-file cap,
 * a nested AGENTS.md joining when a file under it is read, exactly one notice per change and none without one, an
 * unreadable file keeping its last content, and a first baseline that cannot be built making the turn wait.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTemp, harness, tempDir } from '../testing/fixtures';
import type { Harness } from '../testing/fixtures';
import { datedHarness, mockModel, sent } from './context-test-kit';
import { capText, INSTRUCTION_CAP_BYTES } from './instructions';
import { messageText, NOTICE_TAG } from './request-text';

const open: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  cleanupTemp(...dirs.splice(0));
});

const notices = (messages: unknown[]): string[] => messages.map(messageText).filter((t) => t.startsWith(NOTICE_TAG));

describe('instruction files in the baseline', () => {
  it('global first, then every level from the repository top down; CLAUDE.md only where AGENTS.md is missing', async () => {
    const repo = tempDir('repo');
    dirs.push(repo);
    mkdirSync(path.join(repo, '.git'));
    mkdirSync(path.join(repo, 'pkg', 'app'), { recursive: true });
    writeFileSync(path.join(repo, 'AGENTS.md'), 'TOP rules\n');
    writeFileSync(path.join(repo, 'CLAUDE.md'), 'TOP claude (shadowed)\n');
    writeFileSync(path.join(repo, 'pkg', 'CLAUDE.md'), 'PKG claude rules\n');
    writeFileSync(path.join(repo, 'pkg', 'app', 'AGENTS.md'), 'APP rules\n');
    const h = await harness({}, path.join(repo, 'pkg', 'app'));
    open.push(h);
    writeFileSync(path.join(h.dataDir, 'AGENTS.md'), 'GLOBAL rules\n');
    const model = mockModel([{ text: 'ok' }]);
    const r = await h.svc.runWithModel(h.newSession(), model, 'hi');
    expect(r.ok).toBe(true);
    const { system } = sent(model, 0);
    const order = ['GLOBAL rules', 'TOP rules', 'PKG claude rules', 'APP rules'].map((s) => system.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).not.toContain('TOP claude (shadowed)');
    expect(system).toContain(`Working directory: ${h.root}`);
    expect(system).toMatch(/Today's date: \d{4}-\d{2}-\d{2}/);
    expect(system).not.toMatch(/\d{2}:\d{2}/); // no clock time in the prefix
  });

  it('caps a file at a line boundary and says what was cut, in the text and in the view', async () => {
    const h = await harness();
    open.push(h);
    const line = `${'x'.repeat(99)}\n`;
    const big = line.repeat(500) + 'LAST LINE\n'; // 50,010 bytes
    writeFileSync(path.join(h.root, 'AGENTS.md'), big);
    const model = mockModel([{ text: 'ok' }]);
    const sessionId = h.newSession();
    await h.svc.runWithModel(sessionId, model, 'hi');
    const { system } = sent(model, 0);
    const shown = Math.floor(INSTRUCTION_CAP_BYTES / 100) * 100;
    expect(system).toContain(
      `[Cut: the first ${shown} of ${big.length} bytes are shown (cap ${INSTRUCTION_CAP_BYTES} bytes per file); read ${path.join(h.root, 'AGENTS.md')} for the rest.]`,
    );
    expect(system).not.toContain('LAST LINE');
    const view = h.svc.context.view(sessionId);
    expect(view.ok && view.value.sources.find((s) => s.key === `level:${h.root}`)).toMatchObject({
      bytes: big.length,
      cutBytes: big.length - shown,
    });
  });

  it('capText (property): within the cap, a prefix of the file, whole lines when a break exists, cut counted exactly', () => {
    let attempts = 0;
    let held = 0;
    fc.assert(
      fc.property(
        fc
          .array(
            fc.oneof(
              fc.string({ unit: 'binary', maxLength: 30 }),
              fc.constant('\r\n'),
              fc.constant('\n'),
              fc.constant('ü'.repeat(90)),
            ),
            { maxLength: 20 },
          )
          .map((a) => a.join('')),
        fc.integer({ min: 4, max: 300 }),
        (text, cap) => {
          attempts++;
          const bytes = Buffer.from(text, 'utf8');
          const r = capText(bytes, cap);
          const shown = Buffer.from(r.text, 'utf8');
          expect(shown.length).toBeLessThanOrEqual(Math.max(cap, 0));
          expect(bytes.subarray(0, shown.length).equals(shown)).toBe(true);
          expect(r.cutBytes).toBe(bytes.length - shown.length);
          const head = bytes.subarray(0, cap);
          if (r.cutBytes > 0 && head.includes(0x0a)) expect(shown[shown.length - 1]).toBe(0x0a);
          held++;
        },
      ),
      { numRuns: 300, seed: 1414 },
    );
    console.log(`instruction cap (random UTF-8, CRLF, long lines): ${attempts} attempts / ${held} held`);
  });

  it('capText never splits a UTF-8 character when one line is longer than the cap', () => {
    const bytes = Buffer.from('é'.repeat(40), 'utf8'); // 80 bytes, no line break
    const r = capText(bytes, 33);
    expect(r.text).toBe('é'.repeat(16));
    expect(r.cutBytes).toBe(80 - 32);
  });
});

describe('change notices', () => {
  it('one notice per change (AGENTS.md edited, date rolled over), none without one; the system text never changes', async () => {
    const h = await datedHarness();
    open.push(h);
    const file = path.join(h.root, 'AGENTS.md');
    writeFileSync(file, 'Use tabs.\n');
    const model = mockModel([
      { tool: 'list', args: {} },
      { text: 'one' },
      { tool: 'list', args: {} },
      { text: 'two' },
      { text: 'three' },
    ]);
    const sessionId = h.newSession();
    await h.svc.runWithModel(sessionId, model, 'first');
    expect(notices(sent(model, 1).messages)).toEqual([]); // nothing changed between steps
    writeFileSync(file, 'Use spaces. NEW-RULE-41\n');
    h.day.value = '2026-12-03';
    await h.svc.runWithModel(sessionId, model, 'second');
    const after = notices(sent(model, 2).messages);
    expect(after).toHaveLength(2);
    expect(after[0]).toContain("The date changed. Today's date: 2026-12-03");
    expect(after[1]).toContain(`The instruction file ${file} changed. Its complete new text replaces the earlier one:`);
    expect(after[1]).toContain('Use spaces. NEW-RULE-41');
    // the next step and the next turn: the same two notices, in place, and no new one
    expect(notices(sent(model, 3).messages)).toEqual(after);
    await h.svc.runWithModel(sessionId, model, 'third');
    expect(notices(sent(model, 4).messages)).toEqual(after);
    // the record in force holds the new text, rendered as a baseline (what a compaction re-sends)
    const current = h.svc.context.currentBaseline(sessionId) ?? '';
    expect(current).toContain('Use spaces. NEW-RULE-41');
    expect(current).toContain("Today's date: 2026-12-03");
    expect(current).not.toContain('Use tabs.');
    const systems = new Set(model.doStreamCalls.map((_, i) => sent(model, i).system));
    expect(systems.size).toBe(1);
    expect([...systems][0]).toContain('Use tabs.');
    expect([...systems][0]).toContain("Today's date: 2026-12-02");
    // every request is the one before plus what was appended
    for (let i = 1; i < model.doStreamCalls.length; i++) {
      const prev = sent(model, i - 1).messages;
      expect(sent(model, i).messages.slice(0, prev.length)).toEqual(prev);
    }
  });

  it('a removed AGENTS.md is said once; an unreadable one keeps its last content with no notice', async () => {
    const h = await harness();
    open.push(h);
    const file = path.join(h.root, 'AGENTS.md');
    writeFileSync(file, 'Rule A.\n');
    const model = mockModel([{ text: '1' }, { text: '2' }, { text: '3' }, { text: '4' }]);
    const sessionId = h.newSession();
    await h.svc.runWithModel(sessionId, model, 'a');
    rmSync(file);
    symlinkSync('AGENTS.md', file); // a link to itself: stat fails with ELOOP — the file cannot be read
    await h.svc.runWithModel(sessionId, model, 'b');
    expect(notices(sent(model, 1).messages)).toEqual([]);
    rmSync(file);
    await h.svc.runWithModel(sessionId, model, 'c');
    await h.svc.runWithModel(sessionId, model, 'd');
    const told = notices(sent(model, 3).messages);
    expect(told).toEqual([
      `${NOTICE_TAG}\nThe instruction file ${file} was removed; its instructions no longer apply.\n</context-notice>`,
    ]);
  });

  it('a nested AGENTS.md joins once, the first time a tool reads a file under it', async () => {
    const h = await harness();
    open.push(h);
    mkdirSync(path.join(h.root, 'lib', 'deep'), { recursive: true });
    writeFileSync(path.join(h.root, 'lib', 'AGENTS.md'), 'LIB-ONLY rule\n');
    writeFileSync(path.join(h.root, 'lib', 'deep', 'x.ts'), 'export {};\n');
    const model = mockModel([
      { tool: 'read', args: { filePath: 'lib/deep/x.ts' } },
      { tool: 'read', args: { filePath: 'lib/deep/x.ts' } },
      { text: 'done' },
    ]);
    await h.svc.runWithModel(h.newSession(), model, 'read x');
    expect(sent(model, 0).system).not.toContain('LIB-ONLY rule');
    const second = notices(sent(model, 1).messages);
    expect(second).toHaveLength(1);
    expect(second[0]).toContain(
      `Instructions for files under ${path.join(h.root, 'lib')} (read there for the first time):`,
    );
    expect(second[0]).toContain('LIB-ONLY rule');
    expect(notices(sent(model, 2).messages)).toEqual(second);
  });

  it('a first baseline that cannot be built: the turn waits, says why, keeps the message, sends nothing', async () => {
    const h = await harness();
    open.push(h);
    const file = path.join(h.root, 'AGENTS.md');
    symlinkSync('AGENTS.md', file);
    const model = mockModel([{ text: 'never' }]);
    const sessionId = h.newSession();
    const r = await h.svc.runWithModel(sessionId, model, 'keep me');
    expect(r.ok ? 'ok' : r.error.code).toBe('unavailable');
    expect(r.ok ? '' : r.error.message).toBe(`The session's baseline could not be built: ${file}: ELOOP.`);
    expect(model.doStreamCalls).toHaveLength(0);
    const view = h.svc.getSession(sessionId);
    const users = view.ok ? view.value.messages.filter((m) => m.role === 'user') : [];
    expect(users.map((m) => h.svc.store.messageText(m.id))).toEqual(['keep me']);
    rmSync(file);
    writeFileSync(file, 'Now readable.\n');
    const again = await h.svc.runWithModel(sessionId, model, 'try again');
    expect(again.ok).toBe(true);
    expect(sent(model, 0).system).toContain('Now readable.');
  });
});
