/**
 * Importing a session export from the UI through the web host, at the size limit and past it. A generated export
 * (not committed) just under SESSION_IMPORT_MAX_CHARS — pretty-printed JSON whose tool outputs are full of quotes,
 * backslashes and newlines, so the frames grow well past the file when written as JSON — is imported with the
 * Import… button: it arrives whole (every output byte-identical) and no frame the page sent was over the host's
 * frame limit. One character more is refused in the page with a clear message, and no import call is sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SESSION_IMPORT_MAX_CHARS, WS_MAX_FRAME_BYTES } from '../src/shared/limits';
import type { Session } from '../src/shared/model';
import { openApp, shot, type AppInBrowser } from './harness';

let ui: AppInBrowser;
let page: Page;
let projectId: string;
let nearLimit: string;
let tooBig: string;
const outputs: string[] = [];
const sent: { call: string; bytes: number }[] = [];

/** A chunk of "code" that JSON must escape heavily: quotes, backslashes, newlines, tabs. */
function codeChunk(i: number, size: number): string {
  const line = `\tconst s${i} = "a \\"quoted\\" \\\\ path\\n";\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

/**
 * An export document (pretty JSON) of `base` with tool outputs added until its length is exactly `length`: heavily
 * escaped 2 M-character outputs, then one of plain letters (one character each in JSON) for the exact rest.
 */
function exportOfLength(base: { messages: unknown[] } & Record<string, unknown>, length: number): string {
  const sessionId = (base['session'] as Session).id;
  const message = (i: number, output: string): unknown => {
    const messageId = `msg_big_${i}`;
    const part = { id: `prt_big_${i}`, sessionId, messageId, time: 1, type: 'tool', tool: 'read', callId: `c${i}` };
    return {
      id: messageId,
      sessionId,
      role: 'assistant',
      time: 1_700_000_000_000 + i,
      parts: [{ ...part, state: 'completed', input: { filePath: `f${i}.ts` }, output }],
    };
  };
  const doc = { ...base, messages: [...base.messages] };
  outputs.length = 0;
  // The document's length grows by about each message's compact JSON (indentation adds a few hundred characters
  // per message, far inside the 5 M-character margin): measured once per message, not by re-serialising the whole.
  let approx = JSON.stringify(doc, null, 2).length;
  while (approx < length - 5_000_000) {
    outputs.push(codeChunk(outputs.length, 2_000_000));
    const added = message(outputs.length - 1, outputs[outputs.length - 1] as string);
    doc.messages.push(added);
    approx += JSON.stringify(added).length + 1_000;
  }
  doc.messages.push(message(outputs.length, ''));
  const pad = length - JSON.stringify(doc, null, 2).length;
  outputs.push('x'.repeat(pad));
  doc.messages[doc.messages.length - 1] = message(outputs.length - 1, outputs[outputs.length - 1] as string);
  const text = JSON.stringify(doc, null, 2);
  if (text.length !== length) throw new Error(`generated ${text.length}, wanted ${length}`);
  return text;
}

beforeAll(async () => {
  ui = await openApp();
  page = ui.page;
  const root = join(ui.app.temp, 'import-project');
  await mkdir(root, { recursive: true });
  const h = ui.app.served.services.handlers;
  const project = await h['projects.open']({ root });
  if (!project.ok) throw new Error(project.error.message);
  projectId = project.value.id;
  const session = await h['sessions.create']({ projectId, title: 'Exported at the limit' });
  if (!session.ok) throw new Error(session.error.message);
  const exported = await h['sessions.export']({ sessionId: session.value.id });
  if (!exported.ok) throw new Error(exported.error.message);
  await h['sessions.delete']({ sessionId: session.value.id });
  const base = JSON.parse(exported.value.json) as { messages: unknown[] } & Record<string, unknown>;
  const near = exportOfLength(base, SESSION_IMPORT_MAX_CHARS - 10);
  nearLimit = join(ui.app.temp, 'near-limit.landfall.json');
  tooBig = join(ui.app.temp, 'too-big.landfall.json');
  await writeFile(nearLimit, near);
  await writeFile(tooBig, `${near.slice(0, -1)}          \n}`); // limit + 1 characters, still valid JSON
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const payload = typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8');
      sent.push({ call: /"call":"([^"]+)"/.exec(payload)?.[1] ?? '?', bytes: Buffer.byteLength(payload) });
    }),
  );
  await page.reload(); // the page signs in again from its storage; its new socket's frames are recorded
  await page.fill('[data-testid=project-path]', root);
  await page.click('[data-testid=open-project]');
  await page.waitForSelector('.sessions');
}, 180_000);

afterAll(async () => {
  await ui?.close();
});

describe('Import… at the size limit', () => {
  test('an export just under the limit imports whole, in parts that each fit a frame', async () => {
    await page.setInputFiles('[data-testid=import-file]', nearLimit);
    await page
      .locator('[data-testid=session-item]', { hasText: 'Exported at the limit' })
      .waitFor({ timeout: 120_000 });
    const listed = await ui.app.served.services.handlers['sessions.list']({ projectId });
    if (!listed.ok) throw new Error(listed.error.message);
    expect(listed.value.map((s) => s.title)).toEqual(['Exported at the limit']);
    const detail = await ui.app.served.services.handlers['sessions.get']({ sessionId: listed.value[0]!.id });
    if (!detail.ok) throw new Error(detail.error.message);
    const got = detail.value.messages.flatMap((m) => m.parts).map((p) => (p.type === 'tool' ? p.output : undefined));
    expect(got.length).toBe(outputs.length);
    expect(got.every((o, i) => o === outputs[i])).toBe(true);
    const parts = sent.filter((s) => s.call === 'sessions.importPart');
    expect(parts.length).toBe(25);
    expect(sent.filter((s) => s.call.startsWith('sessions.import')).map((s) => s.call)[0]).toBe('sessions.importBegin');
    const largest = Math.max(...sent.map((s) => s.bytes));
    console.log(
      `[import] ${SESSION_IMPORT_MAX_CHARS - 10} characters in ${parts.length} parts; largest frame ${largest} bytes of ${WS_MAX_FRAME_BYTES}`,
    );
    expect(largest).toBeGreaterThan(2_000_000 * 1.2); // escaping grew the frames past the characters sent
    expect(largest).toBeLessThanOrEqual(WS_MAX_FRAME_BYTES);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    await page.locator('.tool-card').first().waitFor({ timeout: 120_000 }); // the imported session shows
    await shot(page, '40-imported-at-limit');
  }, 180_000);

  test('one character over the limit is refused in the page: a clear message, no import call sent', async () => {
    const before = sent.length;
    await page.setInputFiles('[data-testid=import-file]', tooBig);
    const banner = page.getByTestId('error-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-code')).toBe('too_large');
    expect(await banner.textContent()).toContain(
      'This file is too large to import (50,000,001 characters). Landfall imports session exports of up to 50,000,000 characters',
    );
    expect(sent.slice(before).filter((s) => s.call.startsWith('sessions.import'))).toEqual([]);
    await shot(page, '41-import-too-large');
  }, 60_000);
});
