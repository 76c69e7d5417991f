/**
 * Child process for the transaction crash tests: runs one transaction from a JSON spec and SIGKILLs itself at a
 * chosen operation (`kill` = "rename:3" kills right before the third rename), so recovery can be tested at an
 * exact point of a real process death. argv: <spec.json>. Spec: { root, journalDir, kill, atomic, steps:
 * [{ rel, text } | { rel, delete: true } | { rel, link }] }.
 */
import { readFileSync } from 'node:fs';
import { runTransaction, type TxStep } from '../transaction';

interface Spec {
  root: string;
  journalDir: string;
  kill: string;
  atomic: boolean;
  steps: Array<{ rel: string; text?: string; delete?: boolean; link?: string }>;
}

const spec = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Spec;
const [op, nth] = spec.kill.split(':') as [string, string];
let seen = 0;
const steps: TxStep[] = spec.steps.map((s) => ({
  rel: s.rel,
  put:
    s.delete === true
      ? { kind: 'delete' }
      : s.link !== undefined
        ? { kind: 'link', target: s.link }
        : { kind: 'file', bytes: Buffer.from(s.text ?? '') },
}));
runTransaction(steps, {
  root: spec.root,
  journalDir: spec.journalDir,
  label: 'kill-test',
  atomic: spec.atomic,
  sync: 'replaced',
  hook: (o) => {
    if (o === op && ++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write('finished\n');
