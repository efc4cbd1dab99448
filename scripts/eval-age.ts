// Age estimator error on faces of known age: `npm run eval:age [-- --dir DIR] [--dump FILE]`.
// Each photo is judged as /api/verify-age judges a selfie (640 px, the selfie rules, the age
// model), and the estimate is compared with the person's age when photographed. Prints the mean
// absolute error, the bias, the error by age band, how often the answered 80% range holds the
// true age, and what the age step would decide at 18, 21 and 25, for the calibration people and
// for the held-out people apart. The margins of the answered range (AGE_POLICY) are the 90th
// percentiles of the calibration people's errors (over-estimates of people under 25, under-
// estimates of all); the script prints what it measures beside what the code uses.
//
// The folder (not in the repository; scripts/face-calibration/SOURCES.md says where it comes
// from) holds `<set>/<photo>.jpg` and `<set>_info.csv` (face_id, face_age): `london` (neutral),
// `smiling` (the same people smiling; its ages are read from london_info.csv) and `canada`.
// Calibration: the people with an odd number in both sets (both photos of a London person); held
// out: the people with an even number. Both halves hold young adults (Canada: mostly 17-19, the
// ages an age gate decides on).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFaceEngine } from '../src-main/service/core/faces/engine';
import { judgeSelfie } from '../src-main/service/core/faces/policy';
import { ageRangeOf, AGE_POLICY } from '../src-main/service/core/faces/age';
import { decodeImage, SELFIE_MAX_SIDE } from '../src-main/service/core/media/image';
import { APP_ROOT } from '../src-main/service/paths';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dir = arg('--dir') ?? process.env.AGE_PHOTOS ?? join(APP_ROOT, '..', 'shared', 'age-photos');
const dumpFile = arg('--dump');

interface Row { set: string; id: string; photo: string; age: number; calibration: boolean; estimate: number | null; modelLow: number | null; modelHigh: number | null; rulesMet: boolean }

function ages(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/).slice(1)) {
    const [id, age] = line.split(',');
    if (id && age && /^\d+$/.test(age)) out.set(id, Number(age));
  }
  return out;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo]! + (s[Math.min(s.length - 1, lo + 1)]! - s[lo]!) * (pos - lo);
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');

async function main() {
  if (!existsSync(join(dir, 'london_info.csv'))) {
    // Like the name benchmark without its test sets: nothing to measure, said plainly.
    console.log(`No photos of known age in ${dir}: nothing to measure. Where they come from: scripts/face-calibration/SOURCES.md; then --dir DIR.`);
    return;
  }
  const engine = await loadFaceEngine();
  await engine.warm();
  const sets: { set: string; info: string; id: (file: string) => string }[] = [
    { set: 'london', info: 'london_info.csv', id: (f) => f.slice(0, 3) },
    { set: 'smiling', info: 'london_info.csv', id: (f) => f.slice(0, 3) },
    { set: 'canada', info: 'canada_info.csv', id: (f) => f.replace(/\.jpe?g$/i, '') },
  ];
  const rows: Row[] = [];
  for (const s of sets) {
    const known = ages(join(dir, s.info));
    for (const photo of readdirSync(join(dir, s.set)).filter((f) => /\.jpe?g$/i.test(f)).sort()) {
      const id = s.id(photo);
      const age = known.get(id);
      if (age === undefined) continue;
      const img = await decodeImage('image', readFileSync(join(dir, s.set, photo)), { maxSide: SELFIE_MAX_SIDE });
      const verdict = judgeSelfie(await engine.analyze({ ...img, describe: true }));
      const a = verdict.face?.age ?? null;
      rows.push({
        set: s.set, id, photo, age, calibration: Number(id.replace(/\D/g, '')) % 2 === 1,
        estimate: a?.estimate ?? null, modelLow: a?.low ?? null, modelHigh: a?.high ?? null, rulesMet: verdict.failure === null,
      });
    }
    process.stderr.write(`${s.set}: ${rows.filter((r) => r.set === s.set).length} photos\n`);
  }
  if (dumpFile) writeFileSync(dumpFile, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

  const read = rows.filter((r) => r.estimate !== null);
  console.log(`${rows.length} photos of known age; an estimate for ${read.length}; every selfie rule met by ${rows.filter((r) => r.rulesMet).length}\n`);
  const cal = read.filter((r) => r.calibration);
  const over = quantile(cal.filter((r) => r.age < 25).map((r) => r.estimate! - r.age), 0.9);
  const under = quantile(cal.map((r) => r.age - r.estimate!), 0.9);
  console.log(`calibration people (${cal.length} photos): 90th percentile of over-estimates of people under 25 ${over.toFixed(1)} years, of under-estimates ${under.toFixed(1)} years`);
  console.log(`the code's margins (AGE_POLICY): below ${AGE_POLICY.below}, above ${AGE_POLICY.above}\n`);

  const report = (label: string, rs: Row[]) => {
    if (!rs.length) return;
    const err = rs.map((r) => r.estimate! - r.age);
    const abs = err.map(Math.abs);
    const inModel = rs.filter((r) => r.modelLow! <= r.age && r.age <= r.modelHigh!).length;
    const answered = (r: Row) => ageRangeOf({ estimate: r.estimate!, low: r.modelLow!, high: r.modelHigh! });
    const inAnswered = rs.filter((r) => answered(r).low <= r.age && r.age <= answered(r).high).length;
    const atLeastLow = rs.filter((r) => answered(r).low <= r.age).length;
    console.log(`${label}: ${rs.length} photos, ages ${Math.min(...rs.map((r) => r.age))}-${Math.max(...rs.map((r) => r.age))}`);
    console.log(`  mean absolute error ${mean(abs).toFixed(2)} years (median ${quantile(abs, 0.5).toFixed(1)}, 90th percentile ${quantile(abs, 0.9).toFixed(1)}), bias ${mean(err) >= 0 ? '+' : ''}${mean(err).toFixed(2)}`);
    console.log(`  true age inside the model's own 10-90% range: ${pct(inModel, rs.length)} (mean width ${mean(rs.map((r) => r.modelHigh! - r.modelLow!)).toFixed(1)} years)`);
    console.log(`  true age inside the answered range (the wider of the model's and estimate -${AGE_POLICY.below}/+${AGE_POLICY.above}): ${pct(inAnswered, rs.length)} (mean width ${mean(rs.map((r) => answered(r).high - answered(r).low)).toFixed(1)} years); at or above its lower end: ${pct(atLeastLow, rs.length)}`);
    for (const [lo, hi] of [[0, 20], [21, 29], [30, 39], [40, 99]] as const) {
      const band = rs.filter((r) => r.age >= lo && r.age <= hi);
      if (band.length) console.log(`  ages ${lo}-${hi}: ${band.length} photos, MAE ${mean(band.map((r) => Math.abs(r.estimate! - r.age))).toFixed(2)}, bias ${mean(band.map((r) => r.estimate! - r.age)).toFixed(2)}`);
    }
    for (const min of [18, 21, 25]) {
      const passes = (r: Row, low: number) => r.rulesMet && low >= min;
      const below = rs.filter((r) => r.age < min);
      const above = rs.filter((r) => r.age >= min);
      const wrong = below.filter((r) => passes(r, answered(r).low)).length;
      const wrongModel = below.filter((r) => passes(r, r.modelLow!)).length;
      const ok = above.filter((r) => passes(r, answered(r).low)).length;
      const okModel = above.filter((r) => passes(r, r.modelLow!)).length;
      console.log(`  minimum ${min}: under-age verified by selfie ${wrong} of ${below.length} (with the model's own range alone: ${wrongModel}); of age verified by selfie ${pct(ok, above.length)} (model's range: ${pct(okModel, above.length)}), the rest sent to the ID step`);
    }
  };
  report('calibration people', cal);
  report('held-out people', read.filter((r) => !r.calibration));
  report('Canada people, both halves (young adults)', read.filter((r) => r.set === 'canada'));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
