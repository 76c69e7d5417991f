#!/usr/bin/env node
/**
 * Runs a command (electron-vite preview / dev, electron-builder) with better-sqlite3 built for Electron's ABI,
 * then puts the Node build back, so `npm test` (plain Node) keeps working whatever happened.
 *
 * Both builds are cached side by side in node_modules/.landfall-native/, keyed by runtime and version: the first
 * run rebuilds for Electron with @electron/rebuild (needs a C++ toolchain, or downloads a prebuilt binary); later
 * runs only copy files. Usage: node src/main/electron/with-electron-abi.mjs <command> [args…]
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const root = process.cwd();
const moduleDir = join(root, 'node_modules/better-sqlite3');
const binary = join(moduleDir, 'build/Release/better_sqlite3.node');
const cache = join(root, 'node_modules/.landfall-native');
const electronVersion = require('electron/package.json').version;
const nodeCopy = join(cache, `better_sqlite3-node-abi${process.versions.modules}.node`);
const electronCopy = join(cache, `better_sqlite3-electron-${electronVersion}.node`);

async function useElectronBuild() {
  mkdirSync(cache, { recursive: true });
  if (existsSync(binary) && !existsSync(nodeCopy)) copyFileSync(binary, nodeCopy);
  if (existsSync(electronCopy)) return copyFileSync(electronCopy, binary);
  const { rebuild } = require('@electron/rebuild');
  await rebuild({ buildPath: root, electronVersion, onlyModules: ['better-sqlite3'], force: true });
  copyFileSync(binary, electronCopy);
}

function restoreNodeBuild() {
  if (existsSync(nodeCopy)) return copyFileSync(nodeCopy, binary);
  // No saved Node build (first run failed early): rebuild it for this Node.
  spawnSync('npm', ['rebuild', 'better-sqlite3'], { stdio: 'inherit', shell: process.platform === 'win32' });
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: with-electron-abi.mjs <command> [args…]');
  process.exit(2);
}
let result;
try {
  await useElectronBuild();
  result = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
} finally {
  restoreNodeBuild();
}
process.exit(result?.status ?? 1);
