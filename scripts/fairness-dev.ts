import path from 'node:path';
import { buildIndex, createScreenScratch, screen } from '../src-main/service/core/screening/engine';
import { assessRisk } from '../src-main/service/core/screening/risk';
import { loadShippedLists } from '../src-main/service/core/screening/lists/load';
import { makeCustomers } from './support/customers';
const root = path.join(import.meta.dirname, '..');
const lists = loadShippedLists(path.join(root, 'resources', 'watchlists'));
const index = buildIndex(lists.entities);
const scratch = createScreenScratch();
const N = Number(process.argv[2] ?? 1000);
const EX = Number(process.argv[3] ?? 3);
const only = process.argv[4];
const customers = makeCustomers(36, N);
const by = new Map<string, { n: number; flagged: number; high: number; ex: string[]; hex: string[] }>();
let tf = 0, th = 0;
for (const c of customers) {
  if (only && c.tradition !== only) continue;
  const g = by.get(c.tradition) ?? { n: 0, flagged: 0, high: 0, ex: [], hex: [] };
  by.set(c.tradition, g);
  g.n++;
  const r = screen(index, c.subject, { lists: ['sanctions', 'pep'] }, scratch);
  const risk = assessRisk(r.matches.map((m) => ({ kind: m.list, score: m.score, strength: m.strength, cleared: false })));
  const s = c.subject;
  const name = [s.first_name, s.middle_name, s.last_name].filter(Boolean).join(' ') + (s.date_of_birth ? ` (${s.date_of_birth}${s.country ? ' ' + s.country : ''})` : '');
  const m = r.matches[0];
  const d = m ? `${name} ~ ${m.explanation.matched_name} [${m.list} ${m.score} ${m.strength} n=${m.explanation.name_score}; ${m.explanation.summary}; ${m.explanation.qualifiers.map((q) => q.factor + q.effect).join(',')}]` : '';
  if (risk.level !== 'low') { g.flagged++; tf++; if (g.ex.length < EX && risk.level !== 'high') g.ex.push(d); }
  if (risk.level === 'high') { g.high++; th++; if (g.hex.length < EX) g.hex.push(d); }
}
let total = 0; for (const g of by.values()) total += g.n;
console.log(`overall flagged ${(100 * tf / total).toFixed(2)}% high ${(100 * th / total).toFixed(2)}% of ${total}`);
for (const [t, g] of [...by].sort((a, b) => b[1].flagged - a[1].flagged)) {
  console.log(`${t.padEnd(16)} flagged ${(100 * g.flagged / g.n).toFixed(1).padStart(5)}%  high ${(100 * g.high / g.n).toFixed(2).padStart(5)}%`);
  for (const e of g.hex) console.log('   H ', e);
  for (const e of g.ex) console.log('   M ', e);
}
