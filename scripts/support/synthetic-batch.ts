// A batch's answered rows made up from a seed, for benches of the console's grids: invented
// names, scores and matches (nobody's data), shaped like the service's batch results.
import type { BatchEntry, ImportedRow } from '../../src-renderer/console/stores/batch';
import type { ScreeningMatch } from '../../src-shared/contracts/screening';
import { RISK_CHANGES } from '../../src-shared/contracts/screening';

const SYLLABLES = ['an', 'bel', 'cor', 'da', 'el', 'fen', 'gar', 'hal', 'is', 'jor', 'ka', 'lin', 'mar', 'nor', 'os', 'pel', 'quin', 'ros', 'sel', 'tor'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function word(next: () => number, parts: number): string {
  let w = '';
  for (let i = 0; i < parts; i++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function match(next: () => number, row: number, name: string): ScreeningMatch {
  const strong = next() < 0.3;
  return {
    entity_id: `ent-${row}`, list: next() < 0.5 ? 'sanctions' : 'pep', source: 'synthetic', source_list: 'synthetic', schema: 'Person',
    name, aliases: [], score: 70 + Math.floor(next() * 30), strength: strong ? 'strong' : 'possible', risk_level: strong ? 'high' : 'medium',
    programs: [], dates_of_birth: [], countries: [], listed_on: null, record_hash: `h${row}`, cleared: false,
    listings: [{ entity_id: `ent-${row}`, source: 'synthetic', source_list: 'synthetic', name, programs: [], listed_on: null, record_hash: `h${row}` }],
    explanation: { matched_name: name, matched_name_quality: 'strong', name_score: 0.9, exact_name: false, summary: 'name matches', alignment: [], qualifiers: [] },
  };
}

/** `count` answered rows in row order, about one in twenty with a match and one in a hundred refused. */
export function syntheticEntries(count: number, seed = 26): BatchEntry[] {
  const next = random(seed);
  const out: BatchEntry[] = [];
  for (let i = 0; i < count; i++) {
    const row = i + 2;
    const first = word(next, 2);
    const last = word(next, 3);
    const previousScore = Math.floor(next() * 60);
    const input: ImportedRow = {
      row, client_reference_id: `cust-${String(row).padStart(6, '0')}`, first_name: first, middle_name: '', last_name: last,
      date_of_birth: '', gender: '', country: '', previous_screening_id: '',
      previous: { risk_score: previousScore, risk_level: previousScore > 50 ? 'medium' : 'low', flags: [] },
      cleared: [], previous_disposition: '',
    };
    if (next() < 0.01) {
      out.push({ input, result: null, error: 'first_name is required' });
      continue;
    }
    const matches = next() < 0.05 ? [match(next, row, `${last.toUpperCase()} ${first}`)] : [];
    const score = matches.length > 0 ? matches[0]!.score : Math.floor(next() * 40);
    out.push({
      input,
      result: {
        row, id: `scr_${row}`, client_reference_id: input.client_reference_id, previous_screening_id: null,
        risk: { score, level: score >= 70 ? 'high' : score >= 40 ? 'medium' : 'low', decision: 'clear', reasons: [] },
        flags: [], risk_change: RISK_CHANGES[Math.floor(next() * 3)]!, matches, review_token: `t${row}`,
      },
      error: null,
    });
  }
  return out;
}
