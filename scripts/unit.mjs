#!/usr/bin/env node
// `npm run test:unit`: the unit and route files (vitest, one worker per core; the route files also
// with their ledger on PostgreSQL, the `routes-postgres` project) and, beside them,
// the service drivers: fuzz, fuzz:images, chaos and soak, short, one after the other against the
// built service (vitest's `drivers` project). A driver spends most of its time waiting on the
// service it drives (about three quarters of a core): after the rest, one at a time, they added a
// minute and a half to the suite; beside the rest they fill the gaps. They assert correctness
// only; their time and latency targets are the figures of `npm run fuzz`, `soak` and `chaos`.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sideBySide } from './side-by-side.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(ROOT, 'node_modules', '.bin', 'vitest');

const ok = await sideBySide([
  ['unit and route files', vitest, ['run', '--project', 'shared', '--project', 'own-heap', '--project', 'routes-postgres'], ROOT],
  ['service drivers', vitest, ['run', '--project', 'drivers', '--no-file-parallelism'], ROOT],
]);
process.exitCode = ok ? 0 : 1;
