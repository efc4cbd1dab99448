#!/usr/bin/env node
// Keeps the house's walls standing (ARCHITECTURE.md, Boundaries):
// - src-main/service and src-shared never import electron (or React);
// - src-shared imports no node: modules and touches no DOM globals;
// - src-main/service/core never imports the HTTP layer or Hono;
// - src-renderer never imports src-main.
// Usage: node scripts/check-boundaries.mjs [root]   (exit 1 and a list on any violation)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = process.argv[2] ?? process.cwd();
const IMPORT_RE = /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^\w.])require\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^\w.])import\s+['"]([^'"]+)['"]/gm;
const DOM_RE = /\b(?:window|document|navigator|localStorage|sessionStorage)\s*\./;

function files(dir) {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st?.isDirectory()) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else if (/\.(m|c)?[jt]sx?$/.test(e.name)) out.push(p);
  }
  return out;
}

function stripComments(src) {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function importsOf(src) {
  const out = [];
  for (const m of stripComments(src).matchAll(IMPORT_RE)) out.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return out;
}

const rules = [
  {
    dir: 'src-main/service',
    check: (spec) =>
      spec === 'electron' || spec.startsWith('electron/') ? 'imports electron'
      : spec === 'react' || spec.startsWith('react-dom') ? 'imports React'
      : /(^|\/)shell(\/|$)/.test(spec) && spec.startsWith('.') ? 'imports the Electron shell'
      : null,
  },
  {
    dir: 'src-main/service/core',
    check: (spec) => (spec === 'hono' || spec.startsWith('hono/') || spec.startsWith('@hono/') ? 'imports Hono' : /(^|\/)http(\/|$)/.test(spec) && spec.startsWith('.') ? 'imports the HTTP layer' : null),
  },
  {
    dir: 'src-shared',
    check: (spec) =>
      spec === 'electron' || spec.startsWith('electron/') ? 'imports electron'
      : spec.startsWith('node:') || ['fs', 'path', 'crypto', 'os', 'child_process', 'http', 'url'].includes(spec) ? `imports the Node module ${spec}`
      : spec.startsWith('.') && /src-main|src-renderer/.test(spec) ? 'imports outside src-shared'
      : null,
    dom: true,
  },
  {
    dir: 'src-renderer',
    check: (spec) => (spec.includes('src-main') ? 'imports src-main (talk to the service over HTTP)' : null),
  },
];

const problems = [];
for (const rule of rules) {
  for (const f of files(join(root, rule.dir))) {
    if (/\.test\.[jt]sx?$/.test(f) && rule.dir !== 'src-shared') continue;
    const src = readFileSync(f, 'utf8');
    for (const spec of importsOf(src)) {
      const why = rule.check(spec);
      if (why) problems.push(`${relative(root, f).split(sep).join('/')}: ${why} ('${spec}')`);
    }
    if (rule.dom && DOM_RE.test(stripComments(src))) problems.push(`${relative(root, f).split(sep).join('/')}: uses DOM globals`);
  }
}

if (problems.length) {
  process.stderr.write(`Boundary violations (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write('Boundaries hold: service and shared code are free of electron; shared code is free of node: and DOM.\n');
