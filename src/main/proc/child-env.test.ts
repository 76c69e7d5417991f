/**
 * The scrubbed child environment: every rule of child-env.ts on exact variables, then hostile environments
 * (fast-check) — keys under random names, in settings-named variables, copied under harmless names, held only in a
 * secret store — none may survive into a child's environment, and ordinary variables must.
 */
import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { childEnv, isSecretName, looksLikeSecretValue, registerSecretSource } from './child-env';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const ORDINARY = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/dev',
  LANG: 'C.UTF-8',
  TERM: 'xterm-256color',
  HTTPS_PROXY: 'http://proxy.internal:3128',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.sock',
  NODE_ENV: 'development',
  PYTHONPATH: '/home/dev/lib',
  DEBUG: '1',
};

describe('childEnv', () => {
  test('ordinary variables pass unchanged; extra variables are laid over', () => {
    expect(childEnv({ LANG: 'en_US.UTF-8', SERVER_FLAG: 'on' }, ORDINARY)).toEqual({
      ...ORDINARY,
      LANG: 'en_US.UTF-8',
      SERVER_FLAG: 'on',
    });
  });

  test("Landfall's own key variables and the app binary's mode switch are removed", () => {
    const env = childEnv({}, { ...ORDINARY, LANDFALL_API_KEY: 'k-1234567890', LANDFALL_KEY_OPENAI: 'k-0987654321' });
    expect(env).toEqual(ORDINARY);
    expect(childEnv({}, { ELECTRON_RUN_AS_NODE: '1', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  test('well-known secret-bearing names are removed; SSH_AUTH_SOCK is kept', () => {
    const secrets = [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'HF_TOKEN',
      'NPM_TOKEN',
      'npm_config__authToken',
      'NPM_CONFIG__AUTH',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_PROFILE',
      'AZURE_CLIENT_SECRET',
      'AZURE_TENANT_ID',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'PGPASSWORD',
      'MYSQL_PWD_PASSWORD',
      'DB_PASSWD',
      'GPG_PASSPHRASE',
      'SESSION_COOKIE',
      'SIGNING_PRIVATE_KEY',
      'CI_JOB_JWT',
      'BASIC_AUTH',
      'STRIPE_SECRET',
    ];
    for (const name of secrets) expect(isSecretName(name), name).toBe(true);
    for (const name of Object.keys(ORDINARY)) expect(isSecretName(name), name).toBe(false);
    const parent: Record<string, string> = { ...ORDINARY };
    secrets.forEach((name, i) => (parent[name] = `value-number-${i}`));
    expect(childEnv({}, parent)).toEqual(ORDINARY);
  });

  test('credential-shaped values are removed whatever the variable is called', () => {
    const values = [
      'postgres://app:hunter2@db.internal:5432/app',
      'https://user:pa55@registry.example/',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'sk-proj-abcdefghijklmnopqrstuvwx',
      'sk-ant-api03-abcdefghijklmnopqrstuvwx',
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'github_pat_11ABCDEFG0123456789abcdefghij',
      'glpat-abcdefghijklmnopqrst',
      'xoxb-1234567890-abcdefghij',
      'hf_abcdefghijklmnopqrstuvwxyz',
      'npm_abcdefghijklmnopqrstuvwxyz0123456789',
      'AKIAIOSFODNN7EXAMPLE',
    ];
    for (const v of values) expect(looksLikeSecretValue(v), v).toBe(true);
    for (const v of Object.values(ORDINARY)) expect(looksLikeSecretValue(v), v).toBe(false);
    const parent: Record<string, string> = { ...ORDINARY };
    values.forEach((v, i) => (parent[`HARMLESS_${i}`] = v));
    expect(childEnv({}, parent)).toEqual(ORDINARY);
  });

  test('a settings-named key variable is removed at the next spawn, and stays removed after the setting moves', () => {
    const names = { current: ['MY_LLM'] };
    cleanups.push(registerSecretSource(() => ({ names: names.current })));
    const parent = { ...ORDINARY, MY_LLM: 'plain-looking-value', OTHER_LLM: 'another-plain-value' };
    expect(childEnv({}, parent)).toEqual({ ...ORDINARY, OTHER_LLM: 'another-plain-value' });
    names.current = ['OTHER_LLM'];
    expect(childEnv({}, parent)).toEqual(ORDINARY);
  });

  test('a copy of a secret under a harmless name is removed; short common values are not', () => {
    cleanups.push(registerSecretSource(() => ({ values: ['stored-key-from-the-os-store'] })));
    const parent = {
      ...ORDINARY,
      OPENAI_API_KEY: 'copied-everywhere-1',
      ALIAS: 'copied-everywhere-1',
      FROM_STORE: 'stored-key-from-the-os-store',
      SHORT_KEY: '1',
      VERBOSE: '1',
    };
    expect(childEnv({}, parent)).toEqual({ ...ORDINARY, VERBOSE: '1' });
  });

  test('a key wrapped in a header, a config line or a command is removed with its wrapper', () => {
    const key = 'plain-looking-key-1234';
    cleanups.push(registerSecretSource(() => ({ values: ['stored-secret-abcdefgh'] })));
    const parent = {
      ...ORDINARY,
      MY_LLM_KEY: key,
      HDR: `Bearer ${key}`,
      CURL_ARGS: `-H "x-api: ${key}" -s`,
      FROM_STORE_WRAPPED: 'Authorization=stored-secret-abcdefgh;',
      KEYTAB_DIR: '/usr/local', // a path: PATH contains it and is kept
    };
    expect(childEnv({}, parent)).toEqual(ORDINARY);
  });

  test('values carrying a credential-shaped token are removed; ordinary look-alikes are kept', () => {
    const carrying = [
      'Bearer abcdefghijklmnop',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9',
      'Basic dXNlcjpodW50ZXIy',
      '//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789',
      '//registry.example/:_authToken=${NPM_TOKEN}',
      '_auth=dXNlcjpwYXNz',
      'token=0123456789abcdef',
      '--api-key=abcdefgh1234 --verbose',
      'password: hunter2hunter2',
      'export GH=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'git clone https://bot:s3cr3t@git.example/repo.git',
      'AKIAIOSFODNN7EXAMPLE,us-east-1',
    ];
    for (const v of carrying) expect(looksLikeSecretValue(v), v).toBe(true);
    const ordinary = [
      '/home/dev/task-runner/bin',
      'token',
      'Bearer',
      'mask-abcdefghijklmnopqrstuv',
      'npm_config_cache',
    ];
    for (const v of ordinary) expect(looksLikeSecretValue(v), v).toBe(false);
    const parent: Record<string, string> = { ...ORDINARY };
    carrying.forEach((v, i) => (parent[`HARMLESS_${i}`] = v));
    ordinary.forEach((v, i) => (parent[`PLAIN_${i}`] = v));
    const env = childEnv({}, parent);
    expect(Object.keys(env).filter((n) => n.startsWith('HARMLESS_'))).toEqual([]);
    ordinary.forEach((v, i) => expect(env[`PLAIN_${i}`]).toBe(v));
  });

  test('a source that throws does not stop the spawn; the other rules still apply', () => {
    cleanups.push(
      registerSecretSource(() => {
        throw new Error('settings not loaded');
      }),
    );
    expect(childEnv({}, { ...ORDINARY, ANTHROPIC_API_KEY: 'abc' })).toEqual(ORDINARY);
  });
});

describe('hostile environments (property)', () => {
  const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,24}$/);
  const secretValue = fc.stringMatching(/^[A-Za-z0-9_-]{12,40}$/).map((s) => `K${s}`);

  test('no secret value survives, however it is named, copied or wrapped; every ordinary variable survives', () => {
    const wrapper = fc.constantFrom(
      (k: string) => k,
      (k: string) => `Bearer ${k}`,
      (k: string) => `//registry.npmjs.org/:_authToken=${k}`,
      (k: string) => `-H "Authorization: token ${k}"`,
      (k: string) => `prefix-${k}-suffix`,
      (k: string) => `${k}\n`,
    );
    let attempts = 0;
    let held = 0;
    fc.assert(
      fc.property(
        fc.record({
          keyName: envName,
          storeKey: secretValue,
          envKey: secretValue,
          aliases: fc.array(fc.tuple(envName, wrapper), { maxLength: 4 }),
          noise: fc.dictionary(envName, fc.stringMatching(/^[a-z/.:]{0,7}$/), { maxKeys: 8 }),
        }),
        ({ keyName, storeKey, envKey, aliases, noise }) => {
          attempts++;
          const off = registerSecretSource(() => ({ names: [keyName], values: [storeKey] }));
          try {
            const parent: Record<string, string> = { ...noise, [keyName]: envKey };
            // An alias is a copy under ANOTHER name, bare or wrapped (a header, an .npmrc line, a flag): one spelled
            // like the key variable would overwrite the key itself, and a value that then stands only under a
            // plain name is not known to be a secret.
            for (const [i, [a, wrap]] of aliases.entries())
              if (a !== keyName) parent[a] = wrap(i % 2 ? storeKey : envKey);
            const env = childEnv({}, parent);
            for (const v of Object.values(env)) {
              expect(v).not.toContain(envKey);
              expect(v).not.toContain(storeKey);
            }
            // Noise that is not named like a secret (and was not overwritten by a key) reaches the child.
            for (const [n, v] of Object.entries(noise))
              if (parent[n] === v && !isSecretName(n) && n !== keyName) expect(env[n]).toBe(v);
            held++;
          } finally {
            off();
          }
        },
      ),
      { numRuns: 400 },
    );
    console.log(`[hostile] child env scrub: ${attempts} attempts / ${held} held`);
    expect(held).toBe(attempts);
  });
});
