/**
 * The PID namespace children run in (pid-namespace.ts), on this Linux machine: the child keeps exactly the
 * environment it was given (odd names, exported functions, newlines), the user's uid/gid, the working directory,
 * the files and the network; stdin reaches it (servers speak over it); its exit status and what it left running
 * come back; a killed Landfall takes the namespace with it; and with `LANDFALL_PID_NAMESPACE=off` it runs as before
 * and one line on stderr says so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pidNamespace, spawnIsolated, type IsolatedChild } from './pid-namespace';

const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'landfall-pidns-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const MODULE = fileURLToPath(new URL('./pid-namespace.ts', import.meta.url));

/** Run to the end; stdout, the exit code and the init's report. */
function run(c: IsolatedChild, input?: string): Promise<{ out: string; code: number | null; left?: number }> {
  let out = '';
  c.child.stdout?.on('data', (d: Buffer) => (out += d.toString('latin1')));
  if (input !== undefined) c.child.stdin?.end(input);
  return new Promise((resolve) =>
    c.child.on('close', (code) => void c.report.then((r) => resolve({ out, code, ...(r ? { left: r.left } : {}) }))),
  );
}

const base = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: tmp };

describe('a child in its own PID namespace', () => {
  it('is isolated on this machine', () => {
    const ns = pidNamespace();
    expect([ns.active, ns.reason]).toEqual([true, ns.reason]);
  });

  it('gets exactly the environment it was given, byte for byte and in order', async () => {
    const env = {
      ...base,
      'BASH_FUNC_greet%%': '() {  echo hi\n}',
      'a-b.c': 'dashes and dots',
      MULTI: 'one\ntwo',
      EMPTY: '',
      EQ: 'x=y=z',
    };
    const r = await run(
      spawnIsolated('env', ['-0'], { cwd: tmp, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const expected = Object.entries(env)
      .map(([k, v]) => `${k}=${v}\0`)
      .join('');
    expect([r.out, r.code]).toEqual([expected, 0]);
  });

  it('keeps the uid, gid, working directory, files and network; sees only its own processes', async () => {
    writeFileSync(path.join(tmp, 'here.txt'), 'same file\n');
    const server = net.createServer((s) => s.end('network ok\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const script = `id -u; id -g; pwd; cat here.txt; exec 3<>/dev/tcp/127.0.0.1/${port}; head -1 <&3; ls /proc | grep -c '^[0-9]'`;
      const c = spawnIsolated('bash', ['-c', script], {
        cwd: tmp,
        env: base,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const r = await run(c);
      const [uid, gid, cwd, file, net1, procs] = r.out.trim().split('\n');
      expect([uid, gid, cwd, file, net1]).toEqual([
        String(process.getuid?.()),
        String(process.getgid?.()),
        tmp,
        'same file',
        'network ok',
      ]);
      // pid 1 (the init), the watcher, bash, ls and grep: nothing outside the namespace.
      expect(Number(procs)).toBeLessThanOrEqual(6);
    } finally {
      server.close();
    }
  });

  it('reads stdin (servers speak over it), reports its exit status and what it left running', async () => {
    const echo = await run(
      spawnIsolated('cat', [], { cwd: tmp, env: base, detached: true, stdio: ['pipe', 'pipe', 'pipe'] }),
      'over stdin\n',
    );
    expect([echo.out, echo.code, echo.left]).toEqual(['over stdin\n', 0, 0]);
    const left = await run(
      spawnIsolated('bash', ['-c', 'sleep 1000 & sleep 1000 & exit 7'], {
        cwd: tmp,
        env: base,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    expect([left.code, left.left]).toEqual([7, 2]);
  });

  it('says when the command starts (after the set-up), before anything the command writes', async () => {
    // The command waits for a line on stdin: it cannot have started before `started` unless the init said so early.
    const c = spawnIsolated('sh', ['-c', 'read -r x; echo "got $x"'], {
      cwd: tmp,
      env: base,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    c.child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await c.started;
    expect(out).toBe('');
    const r = await run(c, 'go\n');
    expect([r.out, r.code, r.left]).toEqual(['got go\n', 0, 0]);
  });

  it('ends with a killed Landfall: the init sees its channel close and ends everything in the namespace', async () => {
    const arg = `1000.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const standIn = `import { spawnIsolated } from ${JSON.stringify(MODULE)};
const c = spawnIsolated('sh', ['-c', 'setsid sleep ${arg} & exec sleep ${arg}'], { cwd: ${JSON.stringify(tmp)}, env: { PATH: process.env.PATH }, detached: true, stdio: ['ignore', 'ignore', 'ignore'] });
c.child.unref();
console.log('STARTED');
setInterval(() => {}, 1000);`;
    const file = path.join(tmp, 'stand-in.mts');
    writeFileSync(file, standIn);
    const landfall = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
    const sleepers = (): number =>
      readdirSync('/proc').filter((n) => {
        try {
          return /^\d+$/.test(n) && readFileSync(`/proc/${n}/cmdline`, 'latin1') === `sleep\0${arg}\0`;
        } catch {
          return false;
        }
      }).length;
    await new Promise<void>((r) => landfall.stdout.on('data', (d: Buffer) => d.toString().includes('STARTED') && r()));
    while (sleepers() < 2) await new Promise((r) => setTimeout(r, 10));
    landfall.kill('SIGKILL');
    const deadline = Date.now() + 20_000;
    while (sleepers() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(sleepers()).toBe(0);
  });

  it('with LANDFALL_PID_NAMESPACE=off: runs as before, and one line on stderr says what is not protected', () => {
    const script = `import { pidNamespace, spawnIsolated } from ${JSON.stringify(MODULE)};
const c = spawnIsolated('sh', ['-c', 'echo $$'], { cwd: '/', env: { PATH: process.env.PATH }, detached: false, stdio: ['ignore', 'pipe', 'pipe'] });
let out = ''; c.child.stdout.on('data', (d) => (out += d));
c.child.on('close', () => { pidNamespace(); console.log(JSON.stringify({ isolated: c.isolated, pid: Number(out), ns: pidNamespace() })); });`;
    const file = path.join(tmp, 'off.mts');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
      env: { ...process.env, LANDFALL_PID_NAMESPACE: 'off' },
      encoding: 'utf8',
    });
    const got = JSON.parse(r.stdout) as { isolated: boolean; pid: number; ns: { active: boolean; reason: string } };
    expect([got.isolated, got.pid > 10, got.ns.active, got.ns.reason]).toEqual([
      false,
      true,
      false,
      'LANDFALL_PID_NAMESPACE=off',
    ]);
    expect(r.stderr.match(/WITHOUT their own PID namespace/g)).toEqual(['WITHOUT their own PID namespace']);
  });
});
