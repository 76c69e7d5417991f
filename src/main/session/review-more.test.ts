/**
 * ReviewService: guarded files (fixtures/bugs/README.md B40), whole-file hunks, encodings, reloads, undo, the timeline and targets — on real
 * temp projects, a real snapshot store and a real session database.
 */
import { randomBytes } from 'node:crypto';
import { readFile, readlink, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diffOf, reviewFixture, stepTarget, type Fixture } from './review/fixture';

let fx: Fixture | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
});

const bytes = (f: Fixture, p: string): Promise<Buffer> => readFile(join(f.root, p));
const exists = (f: Fixture, p: string): Promise<boolean> =>
  stat(join(f.root, p)).then(
    () => true,
    () => false,
  );

describe('B40 — huge, long-line and binary files are guarded, and decisions still work', () => {
  it('never sends big.json, bundle.min.js or logo.png whole; marks them; rejects restore exact bytes', async () => {
    const big = `{\n${Array.from({ length: 170_000 }, (_, i) => `"k${i}": ${i}`).join(',\n')}\n}\n`;
    const bundle = 'var a=1;'.repeat(650_000);
    const png = randomBytes(200_000);
    png[10] = 0; // a NUL byte, as real PNGs have
    const png2 = randomBytes(200_000);
    png2[10] = 0;
    fx = await reviewFixture(
      { 'big.json': big, 'bundle.min.js': bundle, 'logo.png': png },
      [
        {
          tool: 'edit',
          files: {
            'big.json': big.replace('"k123": 123', '"k123": 124'),
            'bundle.min.js': bundle.replace('var a=1;', 'var a=2;'),
            'logo.png': png2,
          },
        },
      ],
      { maxFileBytes: 16 * 1024 * 1024 },
    );
    const d = await diffOf(fx, stepTarget(fx, 0));
    const byPath = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(byPath['big.json']!.guard).toBe('too_large');
    expect(byPath['bundle.min.js']!.guard).toBe('long_lines');
    expect(byPath['logo.png']!.guard).toBe('binary');
    expect(byPath['logo.png']!.hunks.map((h) => h.kind)).toEqual(['file']);
    expect(byPath['big.json']!.hunks.map((h) => [h.kind, h.lines])).toEqual([
      ['lines', ['-"k123": 123,', '+"k123": 124,']],
    ]);
    for (const f of d.files) expect(f.before === undefined && f.after === undefined).toBe(true);
    expect(JSON.stringify(d).length).toBeLessThan(20_000);
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(r.ok).toBe(true);
    expect((await bytes(fx, 'big.json')).toString()).toBe(big);
    expect((await bytes(fx, 'bundle.min.js')).toString()).toBe(bundle);
    expect((await bytes(fx, 'logo.png')).equals(png)).toBe(true);
  });
});

describe('whole-file hunks and encodings', () => {
  it('rejecting an added file deletes it; rejecting a deleted file brings it back', async () => {
    fx = await reviewFixture({ 'old.txt': 'keep me\n' }, [
      { tool: 'apply_patch', files: { 'new.txt': 'fresh\n', 'old.txt': null } },
    ]);
    const d = await diffOf(fx, stepTarget(fx, 0));
    expect(d.files.map((f) => [f.path, f.status, f.hunks[0]!.kind, f.hunks[0]!.lines])).toEqual([
      ['new.txt', 'added', 'file', ['+fresh']],
      ['old.txt', 'deleted', 'file', ['-keep me']],
    ]);
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(r.ok && [r.value.decision.written, r.value.decision.deleted]).toEqual([['old.txt'], ['new.txt']]);
    expect(await exists(fx, 'new.txt')).toBe(false);
    expect((await bytes(fx, 'old.txt')).toString()).toBe('keep me\n');
  });

  it('a whole-file reject on a file changed since is a conflict, nothing written', async () => {
    fx = await reviewFixture({}, [{ tool: 'write', files: { 'n.txt': 'a\n' } }]);
    await fx.write({ 'n.txt': 'a\nuser\n' });
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(!r.ok && [r.error.code, (r.error.data?.conflicts as { reason: string }[])[0]!.reason]).toEqual([
      'conflict',
      'file_changed',
    ]);
    expect((await bytes(fx, 'n.txt')).toString()).toBe('a\nuser\n');
  });

  it('keeps BOM, CRLF, a missing final newline and latin-1 bytes exactly', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const v0 = Buffer.concat([bom, Buffer.from('héllo\r\nb\r\nc\r\nd\r\ne', 'utf8')]);
    const v1 = Buffer.concat([bom, Buffer.from('héllo\r\nB\r\nc\r\nd\r\nE', 'utf8')]);
    const l0 = Buffer.from('caf\xe9\nx\ny\nz\n', 'latin1');
    const l1 = Buffer.from('caf\xe9!\nx\ny\nZ\n', 'latin1');
    fx = await reviewFixture({ 'w.txt': v0, 'l.txt': l0 }, [{ tool: 'edit', files: { 'w.txt': v1, 'l.txt': l1 } }]);
    const d = await diffOf(fx, stepTarget(fx, 0));
    const w = d.files.find((f) => f.path === 'w.txt')!;
    expect(w.hunks.map((h) => h.lines)).toEqual([
      ['-b', '+B'],
      ['-e', '+E'],
    ]);
    const l = d.files.find((f) => f.path === 'l.txt')!;
    expect(l.before?.startsWith('café')).toBe(true);
    await fx.review.decide({
      sessionId: fx.sessionId,
      target: stepTarget(fx, 0),
      action: 'reject',
      hunkIds: [w.hunks[1]!.id, l.hunks[0]!.id],
    });
    expect(
      (await bytes(fx, 'w.txt')).equals(Buffer.concat([bom, Buffer.from('héllo\r\nB\r\nc\r\nd\r\ne', 'utf8')])),
    ).toBe(true);
    expect((await bytes(fx, 'l.txt')).equals(Buffer.from('caf\xe9\nx\ny\nZ\n', 'latin1'))).toBe(true);
  });
});

describe('decisions survive reloads and can be undone', () => {
  it('a reopened database shows the same hunk ids with their states', async () => {
    fx = await reviewFixture({ 'a.txt': '1\n2\n3\n4\n5\n' }, [
      { tool: 'edit', files: { 'a.txt': '1\nTWO\n3\n4\nFIVE\n' } },
    ]);
    const t = stepTarget(fx, 0);
    const hunks = (await diffOf(fx, t)).files[0]!.hunks;
    await fx.review.decide({ sessionId: fx.sessionId, target: t, action: 'accept', hunkIds: [hunks[0]!.id] });
    await fx.review.decide({ sessionId: fx.sessionId, target: t, action: 'reject', hunkIds: [hunks[1]!.id] });
    fx.review = fx.reopen();
    const again = (await diffOf(fx, stepTarget(fx, 0))).files[0]!.hunks;
    expect(again.map((h) => [h.id, h.state])).toEqual([
      [hunks[0]!.id, 'accepted'],
      [hunks[1]!.id, 'rejected'],
    ]);
    const dup = await fx.review.decide({
      sessionId: fx.sessionId,
      target: t,
      action: 'reject',
      hunkIds: [hunks[0]!.id],
    });
    expect(!dup.ok && dup.error.code).toBe('invalid_input');
  });

  it('undoing a reject puts the bytes back and the hunk is pending again; each decision is a timeline point', async () => {
    fx = await reviewFixture({ 'a.txt': '1\n2\n3\n' }, [{ tool: 'edit', files: { 'a.txt': '1\nTWO\n3\n' } }]);
    const t = stepTarget(fx, 0);
    const h = (await diffOf(fx, t)).files[0]!.hunks[0]!;
    const rej = await fx.review.decide({ sessionId: fx.sessionId, target: t, action: 'reject', hunkIds: [h.id] });
    expect((await bytes(fx, 'a.txt')).toString()).toBe('1\n2\n3\n');
    const undo = await fx.review.undo({ sessionId: fx.sessionId });
    expect(undo.ok && undo.value.decision.written).toEqual(['a.txt']);
    expect((await bytes(fx, 'a.txt')).toString()).toBe('1\nTWO\n3\n');
    expect((await diffOf(fx, t)).files[0]!.hunks[0]!.state).toBe('pending');
    const tl = fx.review.timeline(fx.sessionId);
    expect(tl.map((e) => [e.kind, e.tools[0], e.undone ?? false])).toEqual([
      ['step', 'edit', false],
      ['decision', 'reject', true],
      ['decision', 'undo', false],
    ]);
    const decision = tl[1]!;
    expect(rej.ok && decision.to).toBe(rej.ok ? rej.value.decision.snapshot : '');
    const shown = await diffOf(fx, { kind: 'point', entryId: decision.id, against: 'previous' });
    expect(shown.files[0]!.hunks[0]!.lines).toEqual(['-TWO', '+2']);
    const nothing = await fx.review.undo({ sessionId: fx.sessionId });
    expect(!nothing.ok && nothing.error.code).toBe('invalid_input');
  });

  it('undo of a reject is refused when the file changed after it, nothing written', async () => {
    fx = await reviewFixture({ 'a.txt': '1\n2\n3\n' }, [{ tool: 'edit', files: { 'a.txt': '1\nTWO\n3\n' } }]);
    await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    await fx.write({ 'a.txt': '1\n2\n3\nuser\n' });
    const r = await fx.review.undo({ sessionId: fx.sessionId });
    expect(!r.ok && r.error.code).toBe('conflict');
    expect((await bytes(fx, 'a.txt')).toString()).toBe('1\n2\n3\nuser\n');
  });

  it('refuses decisions while a turn runs', async () => {
    fx = await reviewFixture({ 'a.txt': '1\n' }, [{ tool: 'edit', files: { 'a.txt': '2\n' } }]);
    fx.busy.value = true;
    const r = await fx.review.decide({ sessionId: fx.sessionId, target: stepTarget(fx, 0), action: 'reject' });
    expect(!r.ok && r.error.code).toBe('busy');
    expect((await bytes(fx, 'a.txt')).toString()).toBe('2\n');
  });
});

describe('timeline and targets', () => {
  it('labels steps with tools and files; diffs a point against start and now, a turn, the session', async () => {
    fx = await reviewFixture({ 'a.txt': 'a\n' }, [
      { tool: 'edit', files: { 'a.txt': 'a1\n' } },
      { tool: 'write', files: { 'b.txt': 'b\n' } },
    ]);
    await fx.step('read', {}); // changes nothing: not a point on the timeline
    const tl = fx.review.timeline(fx.sessionId);
    expect(tl.map((e) => e.label)).toEqual(['edit · a.txt', 'write · b.txt']);
    await fx.write({ 'a.txt': 'a2\n' });
    const vsStart = await diffOf(fx, stepTarget(fx, 1, 'start'));
    expect(vsStart.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    const vsNow = await diffOf(fx, stepTarget(fx, 0, 'now'));
    expect(vsNow.files.map((f) => [f.path, f.hunks[0]!.lines])).toEqual([
      ['a.txt', ['-a1', '+a2']],
      ['b.txt', ['+b']],
    ]);
    const turn = await diffOf(fx, { kind: 'turn', messageId: fx.messageId });
    expect(turn.from).toBe(tl[0]!.from);
    expect(turn.to).toBe(tl[1]!.to);
    expect((await diffOf(fx, { kind: 'session' })).scope).toBe(turn.scope);
    const bad = await fx.review.diff(fx.sessionId, { kind: 'point', entryId: 'nope', against: 'previous' });
    expect(!bad.ok && bad.error.code).toBe('invalid_input');
  });
});

describe('links', () => {
  it('refuses to rewrite a symbolic link (its snapshot bytes are the target text), nothing written', async () => {
    fx = await reviewFixture({ 'target.txt': 't\n', 'other.txt': 'o\n' });
    await symlink('target.txt', join(fx.root, 'link'));
    const from = await fx.snapshots.track();
    await rm(join(fx.root, 'link'));
    await symlink('other.txt', join(fx.root, 'link'));
    const to = await fx.snapshots.track();
    const part = { sessionId: fx.sessionId, messageId: fx.messageId, time: Date.now() };
    fx.sessions.putPart({ ...part, id: 'prt_link_a', type: 'step-start', snapshot: from });
    fx.sessions.putPart({ ...part, id: 'prt_link_b', type: 'step-finish', snapshot: to });
    const r = await fx.review.decide({
      sessionId: fx.sessionId,
      target: { kind: 'point', entryId: 'prt_link_a', against: 'previous' },
      action: 'reject',
    });
    expect(!r.ok && r.error.code).toBe('unavailable');
    expect(await readlink(join(fx.root, 'link'))).toBe('other.txt');
  });
});
