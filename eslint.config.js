// Lint rules, including the dependency direction of DESIGN.md §1 (enforced here, not only described):
//   - src/main/engine (the pure engines: edit, patch, text) imports no node built-in, no electron, and nothing
//     outside src/main/engine and src/shared;
//   - src/renderer imports neither main nor node built-ins nor electron;
//   - only src/main/electron imports electron; nothing imports host/ or electron/ from below.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['fs', 'fs/promises', 'path', 'os', 'child_process', 'crypto', 'worker_threads', 'net', 'http'];
const nodePatterns = ['node:*', ...nodeBuiltins];

/** The one folder of the pure engines (edit, patch, and the text helpers they share). */
const ENGINE = 'src/main/engine';
/** How deep below ENGINE a file may sit and still be checked (deeper files may import nothing relative above them). */
const ENGINE_DEPTH = 4;

/**
 * The pure engines' import rule for the files `depth` folders below ENGINE (tests excluded): no electron, no node
 * built-in (every name node:module lists, or any `node:` name), and no relative import that leaves ENGINE for
 * anything but src/shared. How many `../` leave ENGINE depends on the depth, hence one zone per depth (a regex, not
 * a gitignore group: a group cannot re-include ../shared once ../* excluded its parent).
 */
const PURE = 'The engines are pure: no fs, no clock, no node built-ins (DESIGN §1).';

function engineZone(depth) {
  const up = (n) => '\\.\\./'.repeat(n);
  const leaves = depth < ENGINE_DEPTH ? `^${up(depth + 1)}(?!\\.\\./shared/)` : '^\\.\\./';
  return {
    files: depth < ENGINE_DEPTH ? [`${ENGINE}/${'*/'.repeat(depth)}*.ts`] : [`${ENGINE}/${'*/'.repeat(depth)}**/*.ts`],
    ignores: [`${ENGINE}/**/*.test.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // built-ins by exact name: a gitignore-style group would also refuse an engine file named like one
          paths: [
            { name: 'electron', message: 'The engines are pure.' },
            ...builtinModules.map((name) => ({ name, message: PURE })),
          ],
          patterns: [
            { group: ['node:*'], message: PURE },
            { regex: leaves, message: 'The engines import only src/main/engine and src/shared.' },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'resources/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/main/host/**', '../host/*', '../../host/*'], message: 'Nothing imports host/ (DESIGN §1).' },
            {
              group: ['**/main/electron/**', '../electron/*', '../../electron/*'],
              message: 'Nothing imports electron/ (DESIGN §1).',
            },
          ],
          paths: [{ name: 'electron', message: 'Only src/main/electron and src/preload import electron.' }],
        },
      ],
    },
  },
  {
    files: ['src/main/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src/main/electron imports electron.' }] },
      ],
    },
  },
  {
    // End-to-end tests and the UI benchmark start the web host from outside, as `npm run serve` does.
    files: ['e2e/**/*.ts', 'bench/ui.bench.ts', 'bench/ui-review.bench.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src/main/electron and src/preload import electron.' }] },
      ],
    },
  },
  {
    files: ['src/main/electron/**/*.ts', 'src/preload/**/*.ts', 'electron.vite.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  ...Array.from({ length: ENGINE_DEPTH + 1 }, (_, depth) => engineZone(depth)),
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer never touches electron; it uses the contract.' }],
          patterns: [
            {
              group: ['**/main/**', '../main/*', '../../main/*'],
              message: 'The renderer never imports main (DESIGN §1).',
            },
            { group: nodePatterns, message: 'The renderer runs in a sandbox: no node built-ins.' },
          ],
        },
      ],
    },
  },
);
