// Test fixtures that run as processes of their own (charging from another process, a second
// instance killed mid-job): each is bundled with esbuild, the way the build bundles the service
// (scripts/bundled-deps.mjs), and started with plain node. Started through tsx's loader, a fixture
// cost about 1.8 s of CPU before its first line ran (every source file resolved and transformed on
// its way in, Kysely, zod and Hono read file by file); bundled, about 0.4 s. A bundle runs its
// worker pools on the built workers beside the build (out/main), as the built service does: when
// the build is not current, the fixture runs from source through tsx instead, its pools in its own
// thread, so that no test runs new code against old workers.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { isBuildCurrent } from '../../../scripts/build.mjs';
import { BUNDLED_DEPS } from '../../../scripts/bundled-deps.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'src-main', 'service', 'test', 'fixtures');
/**
 * Inside the repository, so that the service's modules find the app's root (paths.ts walks up to
 * its package.json) and resolve its dependencies from node_modules, as the built bundle does.
 */
const OUT = join(ROOT, 'node_modules', '.cache', 'compliance-console-fixtures');

const made = new Map<string, string>();
let built: boolean | undefined;

/** Node's arguments that run `test/fixtures/<name>` (a .ts file): its bundle, made on first use by this process, or its source. */
export function fixtureCommand(name: string): string[] {
  built ??= isBuildCurrent();
  return built ? [bundled(name)] : ['--import', 'tsx', join(FIXTURES, name)];
}

function bundled(name: string): string {
  const known = made.get(name);
  if (known) return known;
  type Deps = Record<string, string> | undefined;
  const pkg = createRequire(import.meta.url)(join(ROOT, 'package.json')) as { dependencies: Deps; devDependencies: Deps; optionalDependencies: Deps };
  // What the test helpers a fixture shares import (vitest among them) stays in node_modules too.
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).filter((d) => !BUNDLED_DEPS.includes(d));
  const { contents } = buildSync({
    entryPoints: [join(FIXTURES, name)], write: false, bundle: true, platform: 'node', format: 'esm', target: 'node20', external, logLevel: 'error',
  }).outputFiles[0]!;
  // Written through a file of this process's own and renamed into place: a test process starting
  // the fixture while another writes it reads one whole bundle or the other.
  const file = join(OUT, name.replace(/\.ts$/, '.mjs'));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${file}.${process.pid}`, contents);
  renameSync(`${file}.${process.pid}`, file);
  made.set(name, file);
  return file;
}
