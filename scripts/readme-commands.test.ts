// The README's commands against the table of how `npm run check:readme` runs them
// (scripts/support/readme-commands.ts): a command the README adds must be one the script can run,
// name a script package.json has, and keep npm's banner out of a redirected file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeCommands, redirectsWithoutSilent, runnerOf } from './support/readme-commands';

const ROOT = join(import.meta.dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
const commands = readmeCommands(readme);

describe('README commands', () => {
  it('finds the commands of the sh blocks and the inline npm spans, without their comments', () => {
    const texts = commands.map((c) => c.text);
    expect(texts).toContain('npm ci && npm run serve');
    expect(texts).toContain('npm run demo');
    expect(texts).toContain('npm run -s cli -- audit export --data-dir DIR > audit.csv');
    // A command continued with a backslash is one command.
    expect(texts.some((t) => t.startsWith('curl -s -X POST "$URL/hosted/generate"') && t.includes("-d '{"))).toBe(true);
    expect(texts.every((t) => !t.includes('#') && !t.endsWith('\\'))).toBe(true);
    expect(commands.length).toBeGreaterThan(40);
  });

  it('every command has a way to be run by npm run check:readme', () => {
    expect(commands.filter((c) => runnerOf(c.text) === undefined).map((c) => `line ${c.line}: ${c.text}`)).toEqual([]);
    // ... which is a real check: an unknown command has none.
    expect(runnerOf('npm run something-new')).toBeUndefined();
  });

  it('every npm run names a script of package.json', () => {
    const named = commands.flatMap((c) => [...c.text.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]!));
    expect(named.filter((n) => !scripts.includes(n))).toEqual([]);
  });

  it('output redirected to a file from npm uses npm run -s (no npm banner in the file)', () => {
    expect(commands.filter((c) => redirectsWithoutSilent(c.text)).map((c) => c.text)).toEqual([]);
    expect(redirectsWithoutSilent('npm run cli -- audit export --data-dir DIR > audit.csv')).toBe(true);
    expect(redirectsWithoutSilent('npm run -s cli -- audit export --data-dir DIR > audit.csv')).toBe(false);
  });

  it('no command assumes the service port: URLs come from $URL, which the service prints', () => {
    expect(commands.filter((c) => /:\d{4,5}\b/.test(c.text)).map((c) => c.text)).toEqual([]);
  });
});
