#!/usr/bin/env node
// Landfall's command line: runs src/main/host/cli.ts through tsx (a dependency), so no build step is needed.
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

register();
const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main', 'host', 'cli.ts');
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
