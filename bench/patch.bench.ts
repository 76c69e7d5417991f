/**
 * apply_patch benchmark: `npm run bench:patch`.
 *   1. a 200-hunk patch over a 50,000-line file — target ≤ 30 ms (median);
 *   2. a 500-file patch (480 updates, 10 adds, 10 deletes) — target ≤ 1 s (median).
 * For each: the pure engine (parse + plan, strings only) and the whole applyPatch on a real temp folder (path
 * checks, locks, reads, planning, encoding, commit diffs, atomic writes with fsync). Medians over several runs;
 * peak memory as the process's max RSS and the largest heap growth seen during one call. Two untimed warm-up
 * runs precede each series. Figures are taken on a shared 2-core
 * machine while other work runs: expect noise.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyPatch } from '../src/main/tools/apply-patch';
import { parsePatch, planPatch } from '../src/main/engine/patch';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

function bigFile(lines: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 10 === 9) out.push('}');
    else if (i % 10 === 0) out.push('');
    else out.push(`  const value${i} = compute(${i}, "${(i * 7919) % 1000}");`);
  }
  return out;
}

/** 200 hunks, each replacing one line with 3 context lines before and after, spread over the file. */
function bigPatch(lines: string[], hunks: number): string {
  const body = ['*** Begin Patch', '*** Update File: big.ts'];
  const step = Math.floor(lines.length / hunks);
  for (let h = 0; h < hunks; h++) {
    const at = h * step + 5;
    body.push('@@');
    for (let c = at - 3; c < at; c++) body.push(` ${lines[c]}`);
    body.push(`-${lines[at]}`, `+${lines[at]?.replace('compute', 'computeFast')}`);
    for (let c = at + 1; c <= at + 3; c++) body.push(` ${lines[c]}`);
  }
  body.push('*** End Patch');
  return body.join('\n');
}

function smallFile(n: number): string {
  return (
    Array.from({ length: 100 }, (_, i) => `file ${n} line ${i}: ${i % 7 === 0 ? '}' : `x = ${i};`}`).join('\n') + '\n'
  );
}

function manyFilesPatch(files: number): string {
  const body = ['*** Begin Patch'];
  for (let n = 0; n < files; n++) {
    const p = `pkg${n % 20}/f${n}.txt`;
    if (n % 50 === 10) body.push(`*** Add File: new/${p}`, `+created ${n}`, '+second line');
    else if (n % 50 === 20) body.push(`*** Delete File: ${p}`);
    else
      body.push(
        `*** Update File: ${p}`,
        '@@',
        ` file ${n} line 40: x = 40;`,
        `-file ${n} line 41: x = 41;`,
        `+file ${n} line 41: x = 4100;`,
        ` file ${n} line 42: }`,
      );
  }
  body.push('*** End Patch');
  return body.join('\n');
}

let heapPeak = 0;
function sampleHeap(base: number): void {
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - base);
}

/** Times `runs` calls of `fn` (after `warmup` untimed ones, so JIT compilation is not measured). */
async function time(
  runs: number,
  prepare: () => Promise<void>,
  fn: () => Promise<void> | void,
  warmup = 2,
): Promise<number[]> {
  const times: number[] = [];
  for (let r = 0; r < warmup + runs; r++) {
    await prepare();
    const base = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    await fn();
    if (r >= warmup) times.push(performance.now() - t0);
    sampleHeap(base);
  }
  return times;
}

function report(name: string, times: number[], targetMs: number): void {
  const m = median(times);
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${name.padEnd(58)} median ${m.toFixed(1).padStart(7)} ms  (target ≤ ${targetMs} ms, ratio ${(m / targetMs).toFixed(2)})  min ${Math.min(...times).toFixed(1)}  max ${Math.max(...times).toFixed(1)}  heap +${(heapPeak / 1048576).toFixed(0)} MB  maxRSS ${rss.toFixed(0)} MB`,
  );
  heapPeak = 0;
}

async function main(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.cpus().length} cores (figures taken under this load)`,
  );
  const tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'landfall-patch-bench-')));
  try {
    const lines = bigFile(50_000);
    const text = lines.join('\n') + '\n';
    const patch = bigPatch(lines, 200);
    const parsed = parsePatch(patch);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const texts = new Map([['big.ts', text]]);
    const check = planPatch(parsed.value, texts);
    if (!check.ok) throw new Error(`${check.error.code}: ${check.error.message}`);
    report(
      '200 hunks / 50,000 lines: parse + plan (pure)',
      await time(
        25,
        async () => {},
        () => {
          const p = parsePatch(patch);
          if (!p.ok || !planPatch(p.value, texts).ok) throw new Error('plan failed');
        },
      ),
      30,
    );
    const root1 = path.join(tmp, 'one');
    await fsp.mkdir(root1);
    report(
      '200 hunks / 50,000 lines: applyPatch on disk',
      await time(
        11,
        () => fsp.writeFile(path.join(root1, 'big.ts'), text),
        async () => {
          const r = await applyPatch(patch, { root: root1 });
          if (!r.ok) throw new Error(r.error.message);
        },
      ),
      30,
    );

    const many = manyFilesPatch(500);
    const root2 = path.join(tmp, 'many');
    const prepare = async (): Promise<void> => {
      await fsp.rm(root2, { recursive: true, force: true });
      for (let n = 0; n < 500; n++) {
        const p = path.join(root2, `pkg${n % 20}/f${n}.txt`);
        if (n % 50 === 10) continue;
        await fsp.mkdir(path.dirname(p), { recursive: true });
        await fsp.writeFile(p, smallFile(n));
      }
    };
    const manyParsed = parsePatch(many);
    if (!manyParsed.ok) throw new Error(manyParsed.error.message);
    const manyTexts = new Map<string, string>();
    for (let n = 0; n < 500; n++) if (n % 50 !== 10) manyTexts.set(`pkg${n % 20}/f${n}.txt`, smallFile(n));
    report(
      '500 files: parse + plan (pure)',
      await time(
        25,
        async () => {},
        () => {
          const p = parsePatch(many);
          if (!p.ok || !planPatch(p.value, manyTexts).ok) throw new Error('plan failed');
        },
      ),
      1000,
    );
    report(
      '500 files: applyPatch on disk (fsync per file)',
      await time(7, prepare, async () => {
        const r = await applyPatch(many, { root: root2 });
        if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      }),
      1000,
    );
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

await main();
