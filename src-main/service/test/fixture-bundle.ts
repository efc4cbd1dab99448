// Test fixtures that run as processes of their own (charging from another process, a second
// instance killed mid-job): each is bundled with esbuild, the way the build bundles the service
// (scripts/bundled-deps.mjs), and started with plain node. Started through tsx's loader, a fixture
// cost about 1.8 s of CPU before its first line ran (every source file resolved and transformed on
// its way in, Kysely, zod and Hono read file by file); bundled, about 0.4 s. A bundle runs its
// worker pools on the built workers beside the build (out/main), as the built service does: when
// the build is not current, the fixture runs from source through tsx instead, its pools in its own
// thread, so that no test runs new code against old workers.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { isBuildCurrent } from '../../../scripts/build.mjs';
import { BUNDLED_DEPS } from '../../../scripts/bundled-deps.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
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
  return built ? [bundled(name)] : ['--import', 'tsx', join(ROOT, 'src-main', 'service', 'test', 'fixtures', name)];
}

function bundled(name: string): string {
  const known = made.get(name);
  if (known) return known;
  type Deps = Record<string, string> | undefined;
  const pkg = createRequire(import.meta.url)(join(ROOT, 'package.json')) as { dependencies: Deps; devDependencies: Deps; optionalDependencies: Deps };
  // What the test helpers a fixture shares import (vitest among them) stays in node_modules too.
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies }).filter((d) => !BUNDLED_DEPS.includes(d));
  const code = buildSync({
    entryPoints: [join(ROOT, 'src-main', 'service', 'test', 'fixtures', name)],
    write: false, bundle: true, platform: 'node', format: 'esm', target: 'node20', external, logLevel: 'error',
  }).outputFiles[0]!.contents;
  // Named by its contents: test processes building the same code at once write the same file (each
  // through a file of its own, renamed into place), and a run of unchanged sources writes nothing.
  const stem = name.replace(/\.ts$/, '');
  const file = join(OUT, `${stem}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(OUT, { recursive: true });
    const part = `${file}.${process.pid}`;
    writeFileSync(part, code);
    renameSync(part, file);
    // Builds of this fixture's earlier sources, unless so recent that a test process may still start one.
    for (const old of readdirSync(OUT).filter((f) => f.startsWith(`${stem}-`) && join(OUT, f) !== file)) {
      const at = join(OUT, old);
      const written = statSync(at, { throwIfNoEntry: false })?.mtimeMs;
      if (written !== undefined && Date.now() - written > 10 * 60_000) rmSync(at, { force: true });
    }
  }
  made.set(name, file);
  return file;
}
