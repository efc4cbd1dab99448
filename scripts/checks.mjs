#!/usr/bin/env node
// `npm run checks`: lint, typecheck and build side by side (npm test's first step). One after the
// other they left a core idle most of the time (each is mostly one thread); together they take the
// longest one's time. The exit code is non-zero when any step failed.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sideBySide } from './side-by-side.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

const ok = await sideBySide([
  ['lint', bin('eslint'), ['.'], ROOT],
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], ROOT],
  ['build', process.execPath, [join(ROOT, 'scripts', 'build.mjs')], ROOT],
]);
process.exitCode = ok ? 0 : 1;
