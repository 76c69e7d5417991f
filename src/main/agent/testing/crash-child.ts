/**
 * Child process for the crash test (crash.test.ts): runs a real session in the data folder and project given on
 * the command line, prints READY when it is at the point to be killed, then waits to be SIGKILLed.
 *   mode `tool`: a bash tool call (`sleep 5`, which ends by itself so no orphan outlives the test) is running.
 *   mode `step`: the model has streamed some text and never finishes its step.
 *   mode `question`: the question tool waits for the user's answer.
 *   mode `queued`: a turn streams (and never ends) while a second message was admitted to the queue.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { AgentService } from '../service';
import { scripted } from './fixtures';

const [dataDir, root, mode] = process.argv.slice(2) as [string, string, 'tool' | 'step' | 'question' | 'queued'];

function hangingModel(): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'test-hang',
    modelId: 'hang',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: 'I will now look at ' });
            setTimeout(() => c.enqueue({ type: 'text-delta', id: 't', delta: 'the file' }), 300);
          },
        }),
      }),
  };
}

async function main(): Promise<void> {
  stage('loaded');
  const opened = await AgentService.open({ dataDir });
  if (!opened.ok) throw new Error(opened.error.message);
  const svc = opened.value;
  stage('service open');
  await svc.saveSettings({
    ...svc.getSettings(),
    permissions: [{ permission: 'bash', pattern: '*', action: 'allow' }],
  });
  const project = await svc.openProject(root);
  if (!project.ok) throw new Error(project.error.message);
  stage('project open');
  const session = svc.createSession(project.value.id);
  if (!session.ok) throw new Error(session.error.message);
  svc.on((e) => {
    if (
      mode === 'tool' &&
      e.type === 'part.updated' &&
      e.part.type === 'tool' &&
      e.part.tool === 'bash' &&
      e.part.state === 'running'
    ) {
      setTimeout(() => ready(), 200);
    }
    if (mode === 'queued' && e.type === 'part.updated' && e.part.type === 'text' && e.part.text.includes('the file')) {
      const sent = svc.send(session.value.id, 'second message');
      if (sent.ok && !sent.value.started) ready();
    }
    if (mode === 'step' && e.type === 'part.updated' && e.part.type === 'text' && e.part.text.includes('the file'))
      ready();
    if (mode === 'question' && e.type === 'part.updated' && e.part.type === 'tool' && e.part.state === 'running')
      ready();
  });
  const question = { question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] };
  const model =
    mode === 'question'
      ? scripted([[{ callId: 'q', toolName: 'question', input: question }]])
      : mode === 'tool'
        ? scripted([
            [
              { callId: 'w', toolName: 'write', input: { filePath: 'a.txt', content: 'a\n' } },
              { callId: 'sleep', toolName: 'bash', input: { command: 'sleep 5' } },
            ],
          ])
        : hangingModel();
  stage('turn started');
  const r = await svc.runWithModel(session.value.id, model, 'crash me');
  // The turn was to be killed before it ended: say how it ended and exit, so the test fails at once with the reason
  // (an idle process with open handles would otherwise wait for the parent's guard, saying nothing).
  if (readySaid) return; // the parent kills it now (a tool-mode turn may end before the kill lands)
  stage(`the turn ended before READY: ${JSON.stringify(r)}`);
  process.exit(3);
}

let readySaid = false;
/** Tells the parent to kill now. */
function ready(): void {
  readySaid = true;
  process.stdout.write('READY\n');
}

/** A milestone on stderr, with the time since the child started (the parent shows stderr when the child fails). */
function stage(what: string): void {
  process.stderr.write(`[crash-child ${mode} +${Math.round(performance.now())} ms] ${what}\n`);
}

void main();
