#!/usr/bin/env node
import { greet } from './greet.js';

const args = process.argv.slice(2);
console.log(greet(args[0] ?? ''));
