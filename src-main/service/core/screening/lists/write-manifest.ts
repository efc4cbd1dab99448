// Writes resources/watchlists/manifest.json (a developer tool, never imported by the service):
//   npx tsx src-main/service/core/screening/lists/write-manifest.ts [--check]
// --check prints the differences' existence and exits 1 instead of writing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildManifest, MANIFEST_FILE, manifestJson } from './manifest';

const dir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../../resources/watchlists');
const json = manifestJson(buildManifest(dir));
const path = join(dir, MANIFEST_FILE);
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // A missing manifest is a difference like any other.
  }
  process.stdout.write(current === json ? 'manifest.json is up to date\n' : 'manifest.json differs from the files and importers\n');
  process.exitCode = current === json ? 0 : 1;
} else {
  writeFileSync(path, json);
  process.stdout.write(`wrote ${path}\n`);
}
