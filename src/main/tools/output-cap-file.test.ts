import { linkSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capOutput, savedOutputFile, saveFullOutput, sweepSavedOutputs } from './output-cap-file';
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES, countLines, utf8Bytes } from './output-cap';
import { readTool } from './read';
import { makeWorkspace, type Workspace } from './tool-test-kit';

let ws: Workspace;
let dir: string;
beforeEach(() => {
  ws = makeWorkspace();
  dir = ws.ctx.scratchDir as string;
});
afterEach(() => ws.cleanup());

/** A test log: numbered lines of mixed text, CRLF endings, some UTF-8, about `bytes` long. */
function log(bytes: number): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const l = `test ${i} ✓ renders <Widget id=${i}> in ${i % 97} ms — ok\r\n`;
    out.push(l);
    size += utf8Bytes(l);
  }
  return out.join('');
}

describe('capOutput (disk side)', () => {
  it('a 2 MB output: preview within both caps, the note says exactly what was left out, the file holds every byte', async () => {
    const text = log(2 * 1024 * 1024);
    const capped = await capOutput(text, { dir, tool: 'bash' });
    const cut = capped.cut;
    if (!cut?.file) throw new Error('expected a cut with a file');
    expect(readFileSync(cut.file).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(path.dirname(cut.file)).toBe(dir);
    expect(utf8Bytes(capped.text)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(countLines(capped.text)).toBeLessThanOrEqual(MAX_OUTPUT_LINES);
    const total = countLines(text);
    const note = `[output cut: ${cut.omittedLines.toLocaleString('en-US')} lines (${cut.omittedBytes.toLocaleString('en-US')} bytes) left out of ${total.toLocaleString('en-US')} lines (${utf8Bytes(text).toLocaleString('en-US')} bytes); shown: lines 1–${cut.headLines.toLocaleString('en-US')} above, lines ${(total - cut.tailLines + 1).toLocaleString('en-US')}–${total.toLocaleString('en-US')} below.`;
    expect(capped.text).toContain(note);
    expect(capped.text).toContain(`The whole output is in ${cut.file} — read it with the read tool`);
    expect(capped.text.startsWith('test 1 ✓')).toBe(true);
    expect(capped.text.endsWith(text.slice(text.lastIndexOf('test '))) && capped.text.endsWith('\r\n')).toBe(true);
  });

  it('a shrink hook makes the preview smaller, still cut at lines', async () => {
    const text = log(300 * 1024);
    const capped = await capOutput(text, {
      dir,
      tool: 'grep',
      tooLong: (p) => (utf8Bytes(p) > 10_000 ? 0.5 : undefined),
    });
    expect(utf8Bytes(capped.text)).toBeLessThanOrEqual(10_000);
    expect(capped.cut?.tail.startsWith('test ')).toBe(true);
  });

  it('a save that fails still gives the preview, and the note says the rest could not be saved', async () => {
    writeFileSync(path.join(ws.root, 'not-a-dir'), 'x');
    const capped = await capOutput(log(100 * 1024), { dir: path.join(ws.root, 'not-a-dir'), tool: 'bash' });
    expect(capped.cut?.file).toBeUndefined();
    expect(capped.text).toMatch(/The whole output could not be saved \(.+\)/);
  });
});

describe('sweepSavedOutputs', () => {
  it('removes saved outputs older than 7 days, keeps newer ones and files that are not ours', async () => {
    const old = await saveFullOutput(dir, 'bash', 'old');
    const fresh = await saveFullOutput(dir, 'bash', 'fresh');
    const foreign = path.join(dir, 'notes.txt');
    writeFileSync(foreign, 'keep');
    const eightDays = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, eightDays, eightDays);
    utimesSync(foreign, eightDays, eightDays);
    expect(await sweepSavedOutputs(dir)).toBe(1);
    expect([existsSync(old), existsSync(fresh), existsSync(foreign)]).toEqual([false, true, true]);
    expect(await sweepSavedOutputs(path.join(dir, 'missing'))).toBe(0);
  });
});

describe('savedOutputFile and the read tool: only saved outputs become readable outside the project', () => {
  it('the read tool opens a saved output by its absolute path and shows its lines', async () => {
    const file = await saveFullOutput(dir, 'bash', 'one\r\ntwo\r\nthree\r\n');
    const o = await ws.run(readTool, { filePath: file, offset: 2, limit: 1 });
    expect(o.ok && o.output).toBe('2: two\n(showing lines 2-2 of 3; call read with offset=3 to read further)');
  });

  it('hostile paths are refused (attempts / held)', async () => {
    const real = await saveFullOutput(dir, 'bash', 'ours');
    const name = path.basename(real);
    const secret = path.join(ws.outer, 'secret.txt');
    writeFileSync(secret, 'SECRET');
    const planted = path.join(dir, 'tool-bash-1700000000000-deadbeef.txt');
    symlinkSync(secret, planted);
    const hard = path.join(dir, 'tool-bash-1700000000001-deadbeef.txt');
    linkSync(secret, hard);
    mkdirSync(path.join(dir, 'sub'));
    const nested = path.join(dir, 'sub', 'tool-bash-1700000000002-deadbeef.txt');
    writeFileSync(nested, 'nested');
    const sibling = `${dir}-evil`;
    mkdirSync(sibling);
    writeFileSync(path.join(sibling, name), 'sibling');
    const unnamed = path.join(dir, 'other.txt');
    writeFileSync(unnamed, 'other');
    const hostile = [
      name, // relative
      planted, // our name, a symlink to a file outside
      hard, // our name, a second hard link of a file outside
      nested, // below the folder, not in it
      path.join(sibling, name), // a sibling folder whose name starts with the folder's
      unnamed, // in the folder, not a name we give
      dir, // the folder itself
      path.join(dir, 'sub', '..', '..', 'secret.txt'), // traversal
      path.join(dir, 'tool-bash-1700000000003-deadbeef.txt'), // missing
      secret,
    ];
    let held = 0;
    for (const p of hostile) {
      const judged = await savedOutputFile(dir, p);
      const read = await ws.run(readTool, { filePath: p });
      const leaked = !read.ok ? false : /SECRET|nested|sibling|other/.test(read.output);
      if (judged === undefined && !leaked) held++;
    }
    console.log(`saved-output read boundary: attempts ${hostile.length} / held ${held}`);
    expect(held).toBe(hostile.length);
    expect(await savedOutputFile(dir, real)).toBe(real);
  });
});
