#!/usr/bin/env node
// `npm run serve` / `npm run demo`: builds the app when its sources changed since the last
// build, then runs the very service bundle the Electron shell forks (out/main/service.js).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';

const root = join(import.meta.dirname, '..');
if (!build()) process.exit(1);

await import(pathToFileURL(join(root, 'out', 'main', 'service.js')).href);
