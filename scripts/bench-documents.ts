// The document part of `npm run bench:verification`: identity and KYC-plus over HTTP on specimen
// documents rendered by code (test/document-fixtures.ts), clean and degraded.
//   dev set     6 fixed holders × TD3, TD1, TD2 × clean, blur, 3-5° rotation, JPEG q35, uneven light,
//               perspective (the set the reader was tuned on)
//   fresh set   holders generated from a seed (names, countries, numbers and dates never used
//               while tuning), each format × degradation twice
// Figures: the six `document_data` fields right (name, date of birth, type, number, expiry,
// issuing country), per field, set and degradation; identity and KYC-plus request times.
// Targets (issue 11): fields right ≥ 97% over both sets; identity median ≤ 1.2 s; KYC-plus
// median ≤ 1.5 s.
import type { ComplianceResult, IdentityResult } from '../src-shared/contracts/documents';
import { DEGRADATIONS, degrade, HOLDERS, renderSpecimen, type Degradation, type DocKind, type Holder } from '../src-main/service/test/document-fixtures';
import { selfie, type FaceId } from '../src-main/service/test/face-fixtures';

const KINDS: DocKind[] = ['td3', 'td1', 'td2'];
const FIELDS = ['name', 'date_of_birth', 'document_type', 'document_number', 'expiry_date', 'issuing_country'] as const;
const FACES: FaceId[] = ['a', 'b', 'c', 'd'];

const SURNAMES = [
  'NAKAMURA', 'OYELARAN', 'LINDQVIST', 'FITZGERALD', 'PAPADOPOULOS', 'KOWALCZYK', 'HERNANDEZ', 'VAN DER BERG', 'OCONNELL', 'ABERNATHY',
  'MORIARTY', 'SILVA SANTOS', 'HOFFMANN', 'DUBOIS', 'WOJCIK', 'JOHANSSON', 'BIANCHI', 'MACDONALD', 'ESPOSITO', 'KRISTENSEN',
  'LEFEBVRE', 'NOVAKOVA', 'ANDERSEN', 'MONTGOMERY', 'OKONKWO', 'YILMAZ', 'SCHNEIDER', 'DELACROIX', 'HALLORAN', 'VASQUEZ',
];
const GIVEN = [
  'HIROSHI', 'ADAEZE', 'INGRID SOFIA', 'PATRICK', 'ELENI', 'TOMASZ', 'MARIA JOSE', 'PIETER', 'SIOBHAN', 'WILLIAM HENRY', 'NIAMH',
  'JOAO PEDRO', 'KLAUS', 'MARGAUX', 'KATARZYNA', 'LARS', 'FRANCESCA', 'EWAN', 'SALVATORE', 'METTE', 'AURELIE', 'PETRA', 'SOREN',
  'ELIZABETH', 'OBINNA', 'EMRE', 'JULIA', 'THEO', 'BRIDGET', 'LUCIA ISABEL',
];
const STATES = ['UTO', 'DEU', 'FRA', 'NLD', 'GBR', 'CAN', 'ESP', 'ITA', 'SWE', 'IRL', 'USA', 'AUS', 'POL', 'PRT'];

/** A small seeded generator (mulberry32): the fresh set is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function freshHolders(n: number, seed = 2026): Holder[] {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const date = (from: number, to: number) => {
    const t = Date.UTC(from, 0, 1) + r() * (Date.UTC(to, 0, 1) - Date.UTC(from, 0, 1));
    return new Date(t).toISOString().slice(0, 10);
  };
  const ALNUM = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  return Array.from({ length: n }, () => {
    const issued = date(2018, 2025);
    const expiry = `${Number(issued.slice(0, 4)) + 10}${issued.slice(4)}`;
    const state = pick(STATES);
    const number = pick('ABCDEFGHJKLMNPRSTUVWXYZ'.split('')) + Array.from({ length: 8 }, () => pick(ALNUM.split(''))).join('');
    return {
      surname: pick(SURNAMES), given: pick(GIVEN), dob: date(1950, 2004), sex: r() < 0.5 ? 'F' : 'M', nationality: state, issuing: state,
      number, expiry, issued, face: pick(FACES),
    } satisfies Holder;
  });
}

const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
function expected(h: Holder, kind: DocKind): Record<(typeof FIELDS)[number], string> {
  return {
    name: `${h.given} ${h.surname}`, date_of_birth: us(h.dob), document_type: kind === 'td3' ? 'passport' : 'id_card',
    document_number: h.number, expiry_date: us(h.expiry), issuing_country: h.issuing,
  };
}

interface Case { set: 'dev' | 'fresh'; holder: Holder; kind: DocKind; how: Degradation }

export async function documentBench(url: string, key: string, line: (label: string, value: string | number) => void, failures: string[]): Promise<void> {
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
  const cases: Case[] = [];
  for (const holder of HOLDERS.slice(0, 6)) for (const kind of KINDS) for (const how of DEGRADATIONS) cases.push({ set: 'dev', holder, kind, how });
  const fresh = freshHolders(KINDS.length * DEGRADATIONS.length * 2);
  let i = 0;
  for (let round = 0; round < 2; round++) for (const kind of KINDS) for (const how of DEGRADATIONS) cases.push({ set: 'fresh', holder: fresh[i++]!, kind, how });

  const post = async <T>(path: string, body: unknown): Promise<{ ms: number; status: number; body: T }> => {
    const t = performance.now();
    const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await r.json()) as T;
    return { ms: performance.now() - t, status: r.status, body: answer };
  };
  const imagesOf = async (c: Case, seed: number) => ({
    selfie_b64: (await selfie(c.holder.face ?? 'a')).toString('base64'),
    id_front_b64: (await degrade(await renderSpecimen(c.holder, { kind: c.kind }), c.how, seed)).toString('base64'),
  });

  process.stdout.write(`\n== Identity  POST /api/identity/v1/submit, one at a time: ${cases.length} specimen documents (selfie + ID)\n`);
  // Warm the reader's and the face models' first call.
  await post('/api/identity/v1/submit', await imagesOf(cases[0]!, 9));
  const times: number[] = [];
  const readMs: number[] = [];
  const tally = new Map<string, { right: number; total: number }>();
  const count = (k: string, ok: boolean) => {
    const v = tally.get(k) ?? { right: 0, total: 0 };
    v.right += ok ? 1 : 0;
    v.total += 1;
    tally.set(k, v);
  };
  const wrong: string[] = [];
  for (const [n, c] of cases.entries()) {
    const r = await post<IdentityResult>('/api/identity/v1/submit', await imagesOf(c, n + 1));
    if (r.status !== 200) failures.push(`identity: ${r.status} on ${c.kind} ${c.how}`);
    times.push(r.ms);
    if (r.body.mrz) readMs.push(r.body.mrz.read_ms);
    const want = expected(c.holder, c.kind);
    const missed: string[] = [];
    for (const f of FIELDS) {
      const ok = r.body.document_data?.[f] === want[f];
      if (!ok) missed.push(f);
      for (const k of ['all', c.set, `field ${f}`]) count(k, ok);
    }
    count(`documents ${c.set}`, missed.length === 0);
    count(`documents ${c.how}`, missed.length === 0);
    count(`documents ${c.kind}`, missed.length === 0);
    if (missed.length) wrong.push(`${c.set} ${c.kind} ${c.how}: ${missed.join(', ')}`);
  }
  const pct = (k: string) => {
    const v = tally.get(k)!;
    return `${((100 * v.right) / v.total).toFixed(1)}% (${v.right} of ${v.total})`;
  };
  line('document fields right, both sets', pct('all'));
  line('  dev set (tuned on)', pct('dev'));
  line('  fresh set (seeded, never tuned on)', pct('fresh'));
  for (const f of FIELDS) line(`  ${f}`, pct(`field ${f}`));
  line('documents with every field right, dev / fresh', `${pct('documents dev')} / ${pct('documents fresh')}`);
  for (const how of DEGRADATIONS) line(`  ${how}`, pct(`documents ${how}`));
  for (const kind of KINDS) line(`  ${kind.toUpperCase()}`, pct(`documents ${kind}`));
  for (const w of wrong.slice(0, 12)) line('  missed', w);
  if (wrong.length > 12) line('  missed', `and ${wrong.length - 12} more`);
  line('document reading (mrz.read_ms), median / p90', `${q(readMs, 0.5).toFixed(0)} / ${q(readMs, 0.9).toFixed(0)} ms`);
  line('identity request, median / p90 / max', `${q(times, 0.5).toFixed(0)} / ${q(times, 0.9).toFixed(0)} / ${Math.max(...times).toFixed(0)} ms`);
  const all = tally.get('all')!;
  if (all.right / all.total < 0.97) failures.push(`document fields right ${pct('all')} < 97%`);
  if (q(times, 0.5) > 1200) failures.push(`identity median ${q(times, 0.5).toFixed(0)} ms > 1200 ms`);

  const kycCases = cases.filter((c) => c.set === 'fresh').slice(0, 18);
  process.stdout.write(`\n== KYC-plus  POST /api/kyc/v1/submit_plus, one at a time: ${kycCases.length} fresh documents (identity + screening)\n`);
  const kyc: number[] = [];
  let screened = 0;
  for (const [n, c] of kycCases.entries()) {
    const r = await post<ComplianceResult>('/api/kyc/v1/submit_plus', await imagesOf(c, 100 + n));
    if (r.status !== 200) failures.push(`kyc-plus: ${r.status}`);
    if (r.body.compliance_screening?.performed) screened++;
    kyc.push(r.ms);
  }
  line('screened (document read)', `${screened} of ${kycCases.length}`);
  line('KYC-plus request, median / p90 / max', `${q(kyc, 0.5).toFixed(0)} / ${q(kyc, 0.9).toFixed(0)} / ${Math.max(...kyc).toFixed(0)} ms`);
  if (q(kyc, 0.5) > 1500) failures.push(`KYC-plus median ${q(kyc, 0.5).toFixed(0)} ms > 1500 ms`);
}
