// A realistic ledger history for one organisation (issue 13): the demo's charts and the reports
// benchmark. Deterministic for a seed. Rows look like the products write them: their status
// words, failure codes, confidences (bimodal), latencies, keys (the organisation's own plus the
// console / hosted pages without a key), hit categories for screenings, and credits only where
// billing would charge (live, non-demo, billable: test keys are never charged). Nothing about any
// subject is made up: there is no such column.
//
// Fast: one transaction, prepared statements; the rollup triggers (migration 0010) are set aside
// for the bulk insert and the rollups added from totals kept here, then the triggers are put back
// as they were, all inside that transaction.
import { CREDITS, type Billable, type Environment } from '../../../../src-shared/catalog';
import { FACE_FAILURES } from '../../../../src-shared/contracts/faces';
import { charged } from '../../../../src-shared/counting';
import type { Db } from '../../db/open';
import { DAY_MS, dayOf, dayStartMs, isoDayOf } from '../../../../src-shared/dates';
import { seededRandom } from '../random';

export interface HistoryOptions {
  orgId: number;
  /** About this many ledger rows in all. */
  rows: number;
  env?: Environment;
  days?: number;
  /** The history ends here (ms; default now); it starts `days` days before. */
  endMs?: number;
  seed?: number;
  /** API key ids to spread rows over (null = console or hosted page); default the env's non-demo keys and null. */
  keys?: (string | null)[];
}

export interface HistoryResult {
  rows: number;
  ms: number;
  from: string;
  to: string;
}

type Pick<T> = readonly (readonly [T, number])[];

function picker<T>(random: () => number, table: Pick<T>): () => T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  return () => {
    let x = random() * total;
    for (const [v, w] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return table[table.length - 1]![0];
  };
}

interface Result {
  status: string;
  error: string | null;
  hits: string | null;
  /** 'pass' | 'fail' | 'pending' | 'none' (no confidence) | 'risk-low' | 'risk-high' (screenings' risk score). */
  conf: 'pass' | 'fail' | 'pending' | 'none' | 'risk-low' | 'risk-high';
  billable: boolean;
}

const PRODUCT_MIX: Pick<Billable> = [['human', 40], ['age', 28], ['identity', 14], ['compliance', 7], ['screen', 8], ['rescreen', 3]];
const PREFIX: Record<Billable, string> = { human: 'ver', age: 'age', identity: 'idv', compliance: 'kyc', screen: 'scr', rescreen: 'scr' };
/** Median latency (ms) per product: faces ~0.2 s, documents ~1.4-1.9 s, screening tens of ms. */
const LATENCY: Record<Billable, number> = { human: 180, age: 240, identity: 1400, compliance: 1900, screen: 35, rescreen: 20 };

function outcomes(random: () => number): Record<Billable, () => Result> {
  const r = (status: string, error: string | null, conf: Result['conf'], hits: string | null = null, billable = true): Result =>
    ({ status, error, conf, hits, billable });
  const face = picker(random, FACE_FAILURES.map((f, i) => [f, [30, 10, 15, 15, 20, 10][i] ?? 10] as const));
  const doc = picker<string>(random, [['face_mismatch', 35], ['document_expired', 20], ['document_inconsistent', 15], ['claim_mismatch', 10], ['no_face_on_document', 20]]);
  const hitKinds = picker<string>(random, [['sanctions', 40], ['pep', 35], ['rca', 10], ['wanted', 5], ['pep,sanctions', 7], ['pep,rca', 3]]);
  const screening = (): Result => {
    const x = random();
    if (x < 0.01) return r('failed', 'compliance_provider_unavailable', 'none', null, false);
    if (x < 0.12) return r('completed', 'screening_hit', 'risk-high', hitKinds());
    return r('completed', null, 'risk-low', '');
  };
  return {
    human: () => (random() < 0.86 ? r('PASS', null, 'pass') : r('FAIL', face(), 'fail')),
    age: () => {
      const x = random();
      if (x < 0.78) return r('success', null, 'pass');
      if (x < 0.86) return r('id_required', 'estimated_age_below_threshold', 'pending');
      if (x < 0.95) return r('failed', 'below_minimum_age', 'fail');
      if (x < 0.98) return r('failed', face(), 'fail');
      return r('failed', 'document_unreadable', 'none');
    },
    identity: () => {
      const x = random();
      if (x < 0.82) return r('PASS', null, 'pass');
      if (x < 0.97) return r('FAIL', doc(), 'fail');
      return r('FAIL', 'document_unreadable', 'none');
    },
    compliance: () => {
      const x = random();
      if (x < 0.8) return r('PASS', null, 'pass', '');
      if (x < 0.9) return r('FAIL', 'screening_hit', 'pass', hitKinds());
      if (x < 0.97) return r('FAIL', doc(), 'fail', '');
      return r('FAIL', 'document_unreadable', 'none');
    },
    screen: screening,
    rescreen: screening,
  };
}

/** Roughly normal (sum of three uniforms), clipped. */
function around(random: () => number, mean: number, spread: number, lo: number, hi: number): number {
  const z = (random() + random() + random() - 1.5) * 2;
  return Math.min(hi, Math.max(lo, Math.round((mean + z * spread) * 10) / 10));
}

export function generateHistory(db: Db, opts: HistoryOptions): HistoryResult {
  const started = performance.now();
  const env = opts.env ?? 'test';
  const days = opts.days ?? 90;
  const random = seededRandom(opts.seed ?? 13);
  const endDay = dayStartMs(dayOf(opts.endMs ?? Date.now()));
  const firstDay = endDay - (days - 1) * DAY_MS;

  const keyRows = db.prepare('SELECT id, demo FROM api_keys WHERE org_id = ? AND env = ? AND revoked_at IS NULL ORDER BY created_at, id')
    .all(opts.orgId, env) as { id: string; demo: number }[];
  const demoKeys = new Set(keyRows.filter((k) => k.demo === 1).map((k) => k.id));
  // Demo keys only ever answer a simulated PASS: real-looking history goes to the other keys.
  const keys = opts.keys ?? [...keyRows.filter((k) => k.demo === 0).map((k) => k.id), null];
  // The first keys carry most traffic (a main integration, then smaller ones); console work ~15%.
  const keyPick = picker<string | null>(random, keys.map((k, i) => [k, k === null ? 15 : 60 / (i + 1)] as const));
  const productPick = picker(random, PRODUCT_MIX);
  const outcome = outcomes(random);

  // Daily volume: growth from 0.6× to 1.4× over the period, quieter weekends, ±10% noise.
  const weights: number[] = [];
  for (let d = 0; d < days; d++) {
    const weekday = new Date(firstDay + d * DAY_MS).getUTCDay();
    const weekend = weekday === 6 ? 0.55 : weekday === 0 ? 0.45 : 1;
    weights.push((0.6 + (0.8 * d) / Math.max(1, days - 1)) * weekend * (0.9 + 0.2 * random()));
  }
  const sum = weights.reduce((s, w) => s + w, 0);
  // Whole rows per day summing to exactly `rows` (largest remainders): rounding each day alone gave
  // a total a row or two off, varying with the weekday the history ends on.
  const shares = weights.map((w) => (w / sum) * opts.rows);
  const perDay = shares.map(Math.floor);
  const short = opts.rows - perDay.reduce((s, n) => s + n, 0);
  const byRemainder = shares.map((v, d) => [v - Math.floor(v), d] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let i = 0; i < short; i++) perDay[byRemainder[i % days]![1]]! += 1;
  const hourPick = picker<number>(random, Array.from({ length: 24 }, (_, h) => [h, h >= 8 && h <= 19 ? 10 : h >= 6 && h <= 22 ? 4 : 1] as const));

  const insert = db.prepare(
    `INSERT INTO verifications (id, org_id, api_key_id, product, env, status, confidence, credits, billable, error_code, latency_ms, created_at, completed_at, hit_categories)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const charge = db.prepare(
    `INSERT INTO credit_entries (org_id, amount, kind, product, verification_id, env, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const daily = db.prepare(
    `INSERT INTO report_daily VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET n = n + excluded.n, conf_n = conf_n + excluded.conf_n, conf_sum = conf_sum + excluded.conf_sum,
       lat_n = lat_n + excluded.lat_n, lat_sum = lat_sum + excluded.lat_sum, credits = credits + excluded.credits,
       c_lt50 = c_lt50 + excluded.c_lt50, c_50_69 = c_50_69 + excluded.c_50_69, c_70_84 = c_70_84 + excluded.c_70_84, c_85_up = c_85_up + excluded.c_85_up`,
  );
  const confidence = db.prepare(
    'INSERT INTO report_confidence VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n',
  );

  const tag = (opts.seed ?? 13).toString(36);
  let written = 0;
  db.transaction(() => {
    const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'verifications' AND name LIKE 'verifications_report_%'")
      .all() as { name: string; sql: string }[];
    for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
    const rollup = new Map<string, number[]>();
    const hist = new Map<string, number>();
    const charges: [number, Billable, string, string][] = [];
    let spend = 0;

    for (let d = 0; d < days; d++) {
      const dayStart = firstDay + d * DAY_MS;
      const day = isoDayOf(dayStart);
      // The day's moments, in order, so ids and times grow together as in a real ledger.
      const moments = Array.from({ length: perDay[d]! }, () => hourPick() * 3_600_000 + Math.floor(random() * 3_600_000)).sort((a, b) => a - b);
      for (const m of moments) {
        const product = productPick();
        const key = product === 'rescreen' ? null : keyPick();
        const o = outcome[product]();
        const conf = o.conf === 'pass' ? around(random, 92, 5, 70, 100)
          : o.conf === 'fail' ? around(random, 45, 15, 0, 84.9)
            : o.conf === 'pending' ? around(random, 62, 6, 40, 80)
              : o.conf === 'risk-low' ? around(random, 8, 6, 0, 29)
                : o.conf === 'risk-high' ? around(random, 70, 15, 35, 100) : null;
        const latency = Math.max(5, Math.round(LATENCY[product] * Math.exp((random() + random() - 1) * 0.8)));
        const pays = charged({ env, demo: key !== null && demoKeys.has(key), billable: o.billable });
        const credits = pays ? CREDITS[product] : 0;
        const id = `${PREFIX[product]}_h${tag}${(written++).toString(36).padStart(8, '0')}`;
        const at = new Date(dayStart + m).toISOString();
        insert.run(id, opts.orgId, key, product, env, o.status, conf, credits, o.billable ? 1 : 0, o.error, latency, at, new Date(dayStart + m + latency).toISOString(), o.hits);
        if (credits > 0) {
          charges.push([credits, product, id, at]);
          spend += credits;
        }
        const k = `${day}\u0000${product}\u0000${key ?? ''}\u0000${o.status}\u0000${o.error ?? ''}\u0000${o.hits === null ? 0 : 1}\u0000${o.hits ?? ''}`;
        let a = rollup.get(k);
        if (!a) rollup.set(k, (a = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        a[0]! += 1;
        if (conf !== null) {
          a[1]! += 1;
          a[2]! += conf;
          if (conf < 50) a[6]! += 1;
          else if (conf < 70) a[7]! += 1;
          else if (conf < 85) a[8]! += 1;
          else a[9]! += 1;
          if (product !== 'screen' && product !== 'rescreen') {
            const hk = `${day}\u0000${Math.round(conf * 10)}`;
            hist.set(hk, (hist.get(hk) ?? 0) + 1);
          }
        }
        a[3]! += 1;
        a[4]! += latency;
        a[5]! += credits;
      }
    }
    if (spend > 0) {
      // Billing never lets a balance go below zero: the history's credits were granted before it.
      charge.run(opts.orgId, spend, 'grant', null, null, null, 'Generated history: credits for its charges', new Date(firstDay).toISOString());
      for (const [amount, product, id, at] of charges) charge.run(opts.orgId, -amount, 'charge', product, id, env, null, at);
    }
    for (const [k, a] of rollup) {
      const [day, product, key, status, error, screened, hits] = k.split('\u0000') as [string, string, string, string, string, string, string];
      daily.run(opts.orgId, env, day, product, key, status, error, Number(screened), hits, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
    }
    for (const [k, n] of hist) {
      const [day, c] = k.split('\u0000') as [string, string];
      confidence.run(opts.orgId, env, day, Number(c), n);
    }
    for (const t of triggers) db.exec(t.sql);
  }).immediate();
  return { rows: written, ms: Math.round(performance.now() - started), from: isoDayOf(firstDay), to: isoDayOf(endDay) };
}
