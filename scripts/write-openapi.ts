// Writes docs/openapi.json: the document GET /api/openapi.json serves, built from the route
// registry of a service composed in a throw-away data directory. Run by `npm run build`;
// openapi.test.ts fails when the checked-in file differs from what the service serves.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compose } from '../src-main/service/compose';
import { createApp } from '../src-main/service/http/app';
import { createLogger } from '../src-main/service/log';

export const OPENAPI_FILE = resolve(import.meta.dirname, '..', 'docs', 'openapi.json');

/** The file's exact text: two-space JSON and a final newline. */
export function openApiText(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-openapi-'));
  const s = await compose({ dataDir, logger: createLogger({ dataDir }) });
  try {
    const { app } = createApp(s);
    const res = await app.request('http://127.0.0.1:4310/api/openapi.json');
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    writeFileSync(OPENAPI_FILE, openApiText(await res.json()));
    process.stdout.write(`Wrote ${OPENAPI_FILE}\n`);
  } finally {
    s.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().then(() => process.exit(0), (e: unknown) => {
    process.stderr.write(`write-openapi: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
