/**
 * A running tool's progress on its part: "written, waiting for diagnostics" marks the running part with the
 * servers waited for; diagnostics that come after the call finished are merged into the completed part (per
 * file) and stored as a late update — which never brings back a part that was removed meanwhile.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../shared/events';
import type { Part } from '../../shared/model';
import { SessionStore } from '../session/store';
import { cleanupTemp, tempDir } from './testing/fixtures';
import { withProgress } from './tool-runner';

type ToolPart = Extract<Part, { type: 'tool' }>;
const dirs: string[] = [];
afterEach(() => cleanupTemp(...dirs.splice(0)));

const base: ToolPart = {
  id: 'prt_1',
  sessionId: 'ses_1',
  messageId: 'msg_1',
  time: 1,
  type: 'tool',
  tool: 'write',
  callId: 'c1',
  state: 'running',
  input: { filePath: 'a.ts' },
};
const diag = { file: 'a.ts', line: 1, col: 7, severity: 1 as const, message: 'Type mismatch' };

describe('tool progress', () => {
  it('marks a running part as written and waiting, and nothing else', () => {
    expect(withProgress(base, { phase: 'diagnostics', servers: ['typescript'] })?.metadata).toEqual({
      phase: 'diagnostics',
      servers: ['typescript'],
    });
    expect(withProgress({ ...base, state: 'completed' }, { phase: 'diagnostics', servers: ['typescript'] })).toBe(
      undefined,
    );
  });

  it('merges late diagnostics into a completed part per file, not into a running or failed one', () => {
    const done: ToolPart = {
      ...base,
      state: 'completed',
      metadata: { title: 'write a.ts', diagnostics: { 'a.ts': [], 'b.ts': [] } },
    };
    const late = { text: 'Errors in a.ts', diagnostics: { 'a.ts': [diag] } };
    expect(withProgress(done, { phase: 'late-diagnostics', report: late })?.metadata).toEqual({
      title: 'write a.ts',
      diagnostics: { 'a.ts': [diag], 'b.ts': [] },
      lateDiagnostics: true,
    });
    expect(withProgress(base, { phase: 'late-diagnostics', report: late })).toBe(undefined);
    expect(withProgress({ ...base, state: 'error' }, { phase: 'late-diagnostics', report: late })).toBe(undefined);
  });

  it('a late update of a removed part writes and logs nothing', () => {
    const dir = tempDir('progress');
    dirs.push(dir);
    const events: CoreEvent[] = [];
    const store = SessionStore.open(path.join(dir, 'landfall.db'), (e) => events.push(e));
    const project = store.upsertProject('/p', 'p');
    const session = store.createSession(project.id, 's');
    const message = store.addMessage(session.id, 'assistant');
    const part: ToolPart = { ...base, sessionId: session.id, messageId: message.id, state: 'completed' };
    store.putPart(part);
    const updated = store.updatePart({ ...part, metadata: { lateDiagnostics: true } });
    expect(updated?.type === 'tool' && updated.metadata).toEqual({ lateDiagnostics: true });
    store.removeMessages(session.id, [message.id]);
    const count = events.length;
    expect(store.updatePart({ ...part, metadata: { lateDiagnostics: true } })).toBe(undefined);
    expect(events.length).toBe(count);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM parts WHERE id = ?').get(part.id)).toEqual({ n: 0 });
    store.close();
  });
});
