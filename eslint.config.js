// Lint rules, including the dependency direction of DESIGN.md §1 (enforced here, not only described):
//   - src/main/edit (the pure engine) imports no fs, no electron, nothing from the rest of main;
//   - src/renderer imports neither main nor node built-ins nor electron;
//   - only src/main/electron imports electron; nothing imports host/ or electron/ from below.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['fs', 'fs/promises', 'path', 'os', 'child_process', 'crypto', 'worker_threads', 'net', 'http'];
const nodePatterns = ['node:*', ...nodeBuiltins];

/**
 * The pure engine's import rule for `files` (tests excluded): no electron, no node built-ins, and no relative
 * import matching `leaveRegex` (one that leaves the engine for anything but src/shared).
 */
function engineZone(files, leaveRegex) {
  return {
    files,
    ignores: ['src/main/edit/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The edit engine is pure.' }],
          patterns: [
            {
              group: nodePatterns,
              message: 'The edit engine is pure: no fs, no clock, no node built-ins (DESIGN §1).',
            },
            { regex: leaveRegex, message: 'The edit engine imports only itself and src/shared.' },
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
  engineZone(
    ['src/main/edit/**/*.ts', 'src/main/patch/{parse,envelope,paths,plan,seek,fold,lines,edits,nearest,types}.ts'],
    // regex, not a gitignore group: a group cannot re-include ../../shared once ../* excluded its parent.
    '^\\.\\./(?!\\.\\./shared/)',
  ),
  // replacers sit one folder deeper: ../ stays inside the engine, ../../ leaves it.
  engineZone(['src/main/edit/*/**/*.ts'], '^\\.\\./\\.\\./(?!\\.\\./shared/)'),
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
