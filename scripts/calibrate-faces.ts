// Face-match calibration (`npm run calibrate:faces`): computes the face-match descriptor of every
// calibration photo the way the service does (selfie at 640 px; the portrait found on a rendered
// ID document searched at 1024 px), builds same-person and different-person pairs, and prints:
//   - the ROC of the shipped alignment: FAR and FRR at candidate thresholds with pair counts and
//     95% Wilson intervals, the equal error rate, and the threshold chosen for FAR ≤ 0.1%;
//   - the same pairs under other chip alignments and a plain box crop (what the alignment buys);
//   - the held-out people (never used to choose anything) at the shipped threshold.
//
// Photos (sources and licences: scripts/face-calibration/SOURCES.md):
//   - from npm packages (always present): the man's 11 photos (@vladmandic/human) and the women of
//     @vladmandic/face-api's demo photos;
//   - from the calibration folder, when present (FACE_CALIBRATION_DIR, `--dir <path>`, or
//     ../shared/face-calibration beside the repository), laid out as <set>/<person>/<photo>.jpg.
// `--quick` uses a quarter of the folder's people (a smoke run); `--compare` adds the other chip
// alignments, the chip alone without its mirror image, and two paddings' chips together (nine chips a photo instead of two).
// `--dump FILE` writes the shipped descriptor of every photo and rendered portrait, with its set,
// person and split, to FILE (JSON), for analyses of the scores beyond this script's (docs/faces.md:
// score normalisation); keep it outside the repository. Nothing else is written anywhere.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { chipTransform, DEFAULT_ALIGNMENT, fitSimilarity, warpChip, type ChipAlignment, type ChipTransform } from '../src-main/service/core/faces/align';
import { CHIP_SIDE } from '../src-main/service/core/faces/descriptor';
import { loadFaceEngine, type InspectedFace } from '../src-main/service/core/faces/engine';
import { descriptorDistance, FACE_MATCH_THRESHOLD } from '../src-main/service/core/faces/match';
import { decodeImage, SELFIE_MAX_SIDE } from '../src-main/service/core/media/image';
import { APP_ROOT } from '../src-main/service/paths';
import { HOLDERS } from '../src-main/service/test/document-fixtures';
import { demoFace, documentWithPortrait, manPhoto } from '../src-main/service/test/face-match-fixtures';
import { samplePhoto } from '../src-main/service/test/face-fixtures';

/** identity.ts searches the document for its portrait at this size. */
const PORTRAIT_SEARCH_SIDE = 1024;
/** The false-accept rate the threshold is chosen for. */
const TARGET_FAR = 0.001;
/** LFW-style sets have dozens of photos of a few people: at most this many per person. */
const MAX_PHOTOS_PER_PERSON = 12;

/** A way to cut the chip; `single`: the network's answer for the chip alone, not the mean with its mirror image (the service's). */
type Variant = { name: string; chip: (f: InspectedFace) => ChipTransform; single?: boolean; also?: (f: InspectedFace) => ChipTransform };

const aligned = (a: ChipAlignment) => (f: InspectedFace) => chipTransform(f.mesh, CHIP_SIDE, a);
/** The alternative to alignment: the detector's box, squared, with a margin, not turned. */
const boxCrop = (margin: number) => (f: InspectedFace): ChipTransform => {
  const side = Math.max(f.box.width, f.box.height) * (1 + 2 * margin);
  const cx = f.box.x + f.box.width / 2;
  const cy = f.box.y + f.box.height / 2;
  return fitSimilarity([{ x: 0, y: 0 }, { x: CHIP_SIDE, y: CHIP_SIDE }], [{ x: cx - side / 2, y: cy - side / 2 }, { x: cx + side / 2, y: cy + side / 2 }]);
};
const alignedName = (a: ChipAlignment) => `mesh → ${a.landmarks === 'dlib' ? 'dlib landmarks' : 'eyes, nose, mouth corners'}, padding ${a.padding.toFixed(2)}`;
/** The shipped alignment first (its descriptor is the service's own), then the alternatives. */
const VARIANTS: Variant[] = [
  { name: `${alignedName(DEFAULT_ALIGNMENT)} (shipped)`, chip: aligned(DEFAULT_ALIGNMENT) },
  { name: `${alignedName(DEFAULT_ALIGNMENT)}, the chip alone (not the mean with its mirror image)`, chip: aligned(DEFAULT_ALIGNMENT), single: true },
  ...[0.15, 0.2, 0.25, 0.3]
    .map((padding): ChipAlignment => ({ landmarks: 'dlib', padding }))
    .concat([{ landmarks: 'five', padding: DEFAULT_ALIGNMENT.padding }])
    .filter((a) => a.landmarks !== DEFAULT_ALIGNMENT.landmarks || a.padding !== DEFAULT_ALIGNMENT.padding)
    .map((a) => ({ name: alignedName(a), chip: aligned(a) })),
  { name: 'padding 0.20 and 0.30, each with its mirror image: the mean of four chips', chip: aligned(DEFAULT_ALIGNMENT), also: aligned({ landmarks: 'dlib', padding: 0.3 }) },
  { name: 'detector box, square, 10% margin, not levelled', chip: boxCrop(0.1) },
  { name: 'detector box, square, 20% margin, not levelled', chip: boxCrop(0.2) },
];

type Engine = Awaited<ReturnType<typeof loadFaceEngine>>;

interface Photo {
  set: string;
  person: string;
  label: string;
  heldOut: boolean;
  /**
   * Photos whose people are not named (the face-api demo photos): two faces of one photo are
   * different people, but a face in one photo and a face in another may be the same woman (the
   * demo photos repeat people), so such pairs are left out.
   */
  photo?: number;
  load: () => Promise<Buffer>;
}

/** Whether a pair's truth is known: same person, or certainly different people. */
function comparable(a: Photo, b: Photo): boolean {
  return a.photo === undefined || b.photo === undefined || a.photo === b.photo;
}
/** Descriptors of one photo under each variant (null: no face with a usable mesh). */
type Described = (number[] | null)[];

// ---- the photos ----

function calibrationDir(): string | null {
  const arg = process.argv.indexOf('--dir');
  const candidates = [arg > 0 ? process.argv[arg + 1] : undefined, process.env.FACE_CALIBRATION_DIR, join(APP_ROOT, '..', 'shared', 'face-calibration')];
  return candidates.find((d): d is string => !!d && existsSync(d)) ?? null;
}

/** People kept aside: never used to choose the alignment or the threshold. */
function isHeldOut(set: string, person: string): boolean {
  if (set === 'lfw') return person === 'Hugo_Chavez' || person === 'Gerhard_Schroeder';
  if (set === 'london' || set === 'canada') return Number.parseInt(person, 10) % 4 === 0;
  return false;
}

/** The man's 11 photos, and every face of the face-api demo photos (different people within a photo). */
async function packagePhotos(engine: Engine): Promise<Photo[]> {
  const out: Photo[] = [];
  for (let i = 0; i < 11; i++) out.push({ set: 'npm', person: 'man', label: `man-${i}`, heldOut: false, load: () => manPhoto(i) });
  for (let photo = 1; photo <= 6; photo++) {
    const bytes = samplePhoto(photo);
    const img = await decodeImage('image', bytes);
    const k = ((await sharp(bytes).metadata()).width ?? img.width) / img.width;
    for (const f of (await engine.analyze({ ...img, describe: false })).faces) {
      if (f.score < 0.5) continue;
      const [x, y, side] = [f.box.x, f.box.y, f.box.width].map((v) => Math.round(v * k)) as [number, number, number];
      const label = `demo-${photo}-${x}-${y}`;
      out.push({ set: 'npm', person: label, label, heldOut: false, photo, load: () => demoFace(photo, x, y, side) });
    }
  }
  return out;
}

function folderPhotos(dir: string, quick: boolean): Photo[] {
  const out: Photo[] = [];
  for (const set of readdirSync(dir).sort()) {
    const setDir = join(dir, set);
    if (!existsSync(setDir) || set.startsWith('.')) continue;
    const people = readdirSync(setDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    people.forEach((person, n) => {
      if (quick && n % 4 !== 1) return;
      const files = readdirSync(join(setDir, person)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, MAX_PHOTOS_PER_PERSON);
      // Tight crops (the face fills the frame) get a border, as a selfie has one.
      const tight = set === 'lfw';
      for (const f of files) {
        const path = join(setDir, person, f);
        out.push({
          set, person, label: `${set}/${person}/${f}`, heldOut: isHeldOut(set, person),
          load: async () => (tight ? withBorder(readFileSync(path)) : readFileSync(path)),
        });
      }
    });
  }
  return out;
}

async function withBorder(b: Buffer): Promise<Buffer> {
  const m = await sharp(b).metadata();
  const pad = Math.round((m.width ?? 100) * 0.4);
  return sharp(b).extend({ top: pad, bottom: pad, left: pad, right: pad, background: '#808080' }).jpeg({ quality: 95 }).toBuffer();
}

// ---- descriptors ----

/** Time of the warp and of the network for one face, measured again on the first photos. */
const timing = { warp: [] as number[], net: [] as number[] };

/** The service's descriptor (variant 0), and with `compare` the other variants' too. */
async function describeAll(engine: Engine, seen: { face: InspectedFace | null }, bytes: Buffer, maxSide: number, compare: boolean): Promise<{ d: Described; box: InspectedFace['box'] | null }> {
  const img = await decodeImage('image', bytes, { maxSide });
  seen.face = null;
  const a = await engine.analyze({ ...img, describe: false, match: true });
  const f = seen.face as InspectedFace | null;
  if (!f) return { d: VARIANTS.map(() => null), box: null };
  const shipped = a.faces.find((x) => x.descriptor.length)?.descriptor ?? null;
  if (timing.net.length < 40) {
    const t0 = performance.now();
    const chip = warpChip(f.rgb, f.width, f.height, VARIANTS[0]!.chip(f), CHIP_SIDE);
    const t1 = performance.now();
    f.describe(chip);
    timing.warp.push(t1 - t0);
    timing.net.push(performance.now() - t1);
  }
  const one = (cut: (f: InspectedFace) => ChipTransform, single: boolean) => {
    const chip = warpChip(f.rgb, f.width, f.height, cut(f), CHIP_SIDE);
    return single ? f.describeOne(chip) : f.describe(chip);
  };
  const variant = (v: Variant) => {
    const d = one(v.chip, v.single === true);
    if (!v.also) return d;
    const e = one(v.also, v.single === true);
    return d.map((x, i) => (x + e[i]!) / 2);
  };
  return { d: VARIANTS.map((v, i) => (i === 0 ? shipped : compare ? variant(v) : null)), box: f.box };
}

/** A passport-style crop around the face (head and shoulders), for pasting onto a document. */
async function portraitCrop(bytes: Buffer, box: InspectedFace['box'], analysedWidth: number): Promise<Buffer> {
  const meta = await sharp(bytes).metadata();
  const k = (meta.width ?? analysedWidth) / analysedWidth;
  const w = box.width * 2 * k;
  const h = w * (420 / 330);
  const cx = (box.x + box.width / 2) * k;
  const cy = (box.y + box.height / 2) * k;
  const left = Math.max(0, Math.round(cx - w / 2));
  const top = Math.max(0, Math.round(cy - h * 0.45));
  const width = Math.min(Math.round(w), (meta.width ?? 0) - left);
  const height = Math.min(Math.round(h), (meta.height ?? 0) - top);
  return sharp(bytes).extract({ left, top, width, height }).jpeg({ quality: 92 }).toBuffer();
}

// ---- statistics ----

/** 95% Wilson score interval of k successes in n trials. */
export function wilson(k: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}

interface Pairs {
  genuine: number[];
  impostor: number[];
}
const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const rate = (k: number, n: number) => {
  const [lo, hi] = wilson(k, n);
  return `${pct(k / n)} (${k}/${n}; ${pct(lo)}-${pct(hi)})`;
};
const frr = (p: Pairs, t: number) => p.genuine.filter((d) => d > t).length;
const far = (p: Pairs, t: number) => p.impostor.filter((d) => d <= t).length;

/** The largest threshold whose false-accept rate is at most `target`. */
function thresholdFor(p: Pairs, target: number): number {
  const sorted = [...p.impostor].sort((a, b) => a - b);
  const allowed = Math.floor(target * sorted.length);
  // Accepting at most `allowed` impostors: stay just below the next one.
  const next = sorted[allowed] ?? 2;
  return Math.floor((next - 1e-9) * 1000) / 1000;
}

function eer(p: Pairs): { rate: number; at: number } {
  let best = { gap: 2, rate: 1, at: 0 };
  for (let t = 0.2; t <= 1; t += 0.001) {
    const a = far(p, t) / p.impostor.length;
    const r = frr(p, t) / p.genuine.length;
    if (Math.abs(a - r) < best.gap) best = { gap: Math.abs(a - r), rate: (a + r) / 2, at: t };
  }
  return { rate: best.rate, at: best.at };
}

// ---- main ----

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const compare = process.argv.includes('--compare');
  const dir = calibrationDir();
  const seen: { face: InspectedFace | null } = { face: null };
  const engine = await loadFaceEngine({ inspect: (f) => (seen.face = f) });
  await engine.warm();
  const photos = [...(await packagePhotos(engine)), ...(dir ? folderPhotos(dir, quick) : [])];

  const selfies: Described[] = [];
  const portraits = new Map<number, Described>();
  const descriptorMs: number[] = [];
  let noFace = 0;
  let docs = 0;
  const started = performance.now();
  for (const [i, p] of photos.entries()) {
    const bytes = await p.load();
    const t = performance.now();
    const s = await describeAll(engine, seen, bytes, SELFIE_MAX_SIDE, compare);
    descriptorMs.push(performance.now() - t);
    selfies.push(s.d);
    if (!s.d[0]) noFace += 1;
    // The first photo of each person with another photo becomes the portrait of a document.
    const first = photos.findIndex((q) => q.set === p.set && q.person === p.person);
    const others = photos.some((q, j) => j !== i && q.set === p.set && q.person === p.person);
    if (first === i && others && s.box && p.set !== 'canada') {
      const img = await decodeImage('image', bytes, { maxSide: SELFIE_MAX_SIDE });
      const holder = HOLDERS[docs % HOLDERS.length]!;
      const doc = await documentWithPortrait(holder, await portraitCrop(bytes, s.box, img.width), { kind: docs % 3 === 0 ? 'td1' : 'td3' });
      portraits.set(i, (await describeAll(engine, seen, doc, PORTRAIT_SEARCH_SIDE, compare)).d);
      docs += 1;
    }
    if ((i + 1) % 50 === 0) process.stderr.write(`  ${i + 1}/${photos.length} photos (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  }

  const people = new Set(photos.map((p) => `${p.set}/${p.person}`));
  const multi = [...people].filter((k) => photos.filter((p) => `${p.set}/${p.person}` === k).length > 1);
  console.log(`\nPhotos: ${photos.length} of ${people.size} people (${multi.length} with two photos or more); ${noFace} without a usable face; ${portraits.size} documents rendered.`);
  console.log(`Calibration folder: ${dir ?? 'none (npm-package photos only)'}${quick ? ' (--quick)' : ''}`);

  // Pairs, per variant and per split. A missing descriptor is a false reject (genuine) and a
  // correct reject (impostor): the distance is taken as infinite.
  const INF = 9;
  const dist = (a: number[] | null, b: number[] | null) => (a && b ? descriptorDistance(a, b) : INF);
  const build = (v: number, heldOut: boolean) => {
    const selfie: Pairs = { genuine: [], impostor: [] };
    const doc: Pairs = { genuine: [], impostor: [] };
    for (let i = 0; i < photos.length; i++) {
      for (let j = i + 1; j < photos.length; j++) {
        const a = photos[i]!, b = photos[j]!;
        // Split by people: a pair belongs to the held-out split only if both people are held out,
        // and to the calibration split only if neither is.
        if (a.heldOut !== heldOut || b.heldOut !== heldOut || !comparable(a, b)) continue;
        const same = a.set === b.set && a.person === b.person;
        (same ? selfie.genuine : selfie.impostor).push(dist(selfies[i]![v]!, selfies[j]![v]!));
      }
    }
    for (const [i, portrait] of portraits) {
      const a = photos[i]!;
      if (a.heldOut !== heldOut) continue;
      photos.forEach((b, j) => {
        if (j === i || b.heldOut !== heldOut || !comparable(a, b)) return;
        const same = a.set === b.set && a.person === b.person;
        (same ? doc.genuine : doc.impostor).push(dist(portrait[v]!, selfies[j]![v]!));
      });
    }
    return { selfie, doc, all: { genuine: [...selfie.genuine, ...doc.genuine], impostor: [...selfie.impostor, ...doc.impostor] } };
  };

  const dumpAt = process.argv.indexOf('--dump');
  if (dumpAt > 0) {
    // The shipped descriptors of every photo and rendered portrait, for analyses outside this script.
    writeFileSync(process.argv[dumpAt + 1]!, JSON.stringify({
      photos: photos.map(({ set, person, label, heldOut, photo }) => ({ set, person, label, heldOut, photo })),
      selfies: selfies.map((d) => d[0]), portraits: [...portraits].map(([i, d]) => [i, d[0]]),
    }));
  }
  const cal = build(0, false);
  const chosen = thresholdFor(cal.all, TARGET_FAR);
  const e = eer(cal.all);
  console.log(`\n== ROC of the shipped alignment, calibration people (held-out people excluded)`);
  console.log(`pairs: same person ${cal.selfie.genuine.length} photo-photo + ${cal.doc.genuine.length} document-photo; different people ${cal.selfie.impostor.length} + ${cal.doc.impostor.length}`);
  console.log(`${'distance ≤'.padStart(10)}  ${'FAR (false accepts; 95% CI)'.padEnd(36)}  ${'FRR photo-photo'.padEnd(30)}  ${'FRR document-photo'.padEnd(30)}  FRR all`);
  const rows = [0.4, 0.44, 0.48, 0.5, 0.52, 0.54, 0.56, 0.58, 0.6, 0.62, 0.64, chosen, FACE_MATCH_THRESHOLD].filter((t, i, a) => a.indexOf(t) === i).sort((a, b) => a - b);
  for (const t of rows) {
    const mark = t === FACE_MATCH_THRESHOLD ? '  <- shipped' : t === chosen ? '  <- chosen here' : '';
    console.log(`${t.toFixed(3).padStart(10)}  ${rate(far(cal.all, t), cal.all.impostor.length).padEnd(36)}  ${rate(frr(cal.selfie, t), cal.selfie.genuine.length).padEnd(30)}  ${rate(frr(cal.doc, t), cal.doc.genuine.length).padEnd(30)}  ${rate(frr(cal.all, t), cal.all.genuine.length)}${mark}`);
  }
  console.log(`EER ${pct(e.rate)} at distance ${e.at.toFixed(3)}; threshold for FAR ≤ ${pct(TARGET_FAR, 1)}: ${chosen.toFixed(3)} (FRR there ${rate(frr(cal.all, chosen), cal.all.genuine.length)})`);
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * (xs.length - 1)))]!;
  for (const [name, xs] of [['same person, photo-photo', cal.selfie.genuine], ['same person, document-photo', cal.doc.genuine], ['different people', cal.all.impostor]] as const) {
    const finite = xs.filter((x) => x < INF);
    console.log(`  ${name.padEnd(28)} distance min ${q(finite, 0).toFixed(3)} p05 ${q(finite, 0.05).toFixed(3)} median ${q(finite, 0.5).toFixed(3)} p95 ${q(finite, 0.95).toFixed(3)} max ${q(finite, 1).toFixed(3)}`);
  }

  // Where the errors fall: false rejects by set, false accepts by the London set's self-reported
  // ethnicity (pairs of two people of the same group, the hardest to tell apart).
  const bySet = new Map<string, { n: number; fr: number }>();
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const a = photos[i]!, b = photos[j]!;
      if (a.heldOut || b.heldOut || a.set !== b.set || a.person !== b.person) continue;
      const e = bySet.get(a.set) ?? { n: 0, fr: 0 };
      e.n += 1;
      if (dist(selfies[i]![0]!, selfies[j]![0]!) > chosen) e.fr += 1;
      bySet.set(a.set, e);
    }
  }
  console.log(`  photo-photo false rejects at ${chosen.toFixed(3)} by set: ${[...bySet].map(([k, v]) => `${k} ${rate(v.fr, v.n)}`).join('; ')}`);
  const info = dir && existsSync(join(dir, 'london', 'london_info.csv')) ? readFileSync(join(dir, 'london', 'london_info.csv'), 'utf8') : '';
  const group = new Map(info.split('\n').slice(1).map((l) => l.trim().split(',')).filter((c) => c.length >= 4).map((c) => [c[0]!, c[3]!]));
  /** False accepts among different London people of the same self-reported group, at threshold t. */
  const groupFar = (v: number, t: number) => {
    const byGroup = new Map<string, { n: number; fa: number }>();
    for (let i = 0; i < photos.length; i++) {
      for (let j = i + 1; j < photos.length; j++) {
        const a = photos[i]!, b = photos[j]!;
        if (a.set !== 'london' || b.set !== 'london' || a.person === b.person || a.heldOut || b.heldOut) continue;
        const g = group.get(a.person);
        if (!g || g !== group.get(b.person)) continue;
        const e = byGroup.get(g) ?? { n: 0, fa: 0 };
        e.n += 1;
        if (dist(selfies[i]![v]!, selfies[j]![v]!) <= t) e.fa += 1;
        byGroup.set(g, e);
      }
    }
    return [...byGroup].map(([k, e]) => `${k} ${rate(e.fa, e.n)}`).join('; ');
  };
  if (group.size) console.log(`  London, different people of the same self-reported group, false accepts at ${chosen.toFixed(3)}: ${groupFar(0, chosen)}`);

  // The pairs nearest the threshold, by name: a mislabelled photo shows up here first.
  const named: { d: number; same: boolean; a: string; b: string }[] = [];
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const a = photos[i]!, b = photos[j]!;
      if (!comparable(a, b)) continue;
      named.push({ d: dist(selfies[i]![0]!, selfies[j]![0]!), same: a.set === b.set && a.person === b.person, a: a.label, b: b.label });
    }
  }
  console.log('  closest different people:', named.filter((n) => !n.same).sort((x, y) => x.d - y.d).slice(0, 10).map((n) => `${n.a} ~ ${n.b} ${n.d.toFixed(3)}`).join('; '));
  console.log('  farthest same person:', named.filter((n) => n.same).sort((x, y) => y.d - x.d).slice(0, 6).map((n) => `${n.a} ~ ${n.b} ${n.d.toFixed(3)}`).join('; '));

  if (compare) {
    console.log(`\n== Alignments compared on the same calibration pairs`);
    console.log(`${'chip'.padEnd(50)}  ${'EER'.padEnd(7)}  threshold for FAR ≤ 0.1% and FRR there`);
    VARIANTS.forEach((v, i) => {
      const p = build(i, false).all;
      const t = thresholdFor(p, TARGET_FAR);
      console.log(`${v.name.padEnd(50)}  ${pct(eer(p).rate).padEnd(7)}  ${t.toFixed(3)}  ${rate(frr(p, t), p.genuine.length)}`);
      if (group.size) console.log(`${''.padEnd(52)}same-group false accepts there: ${groupFar(i, t)}`);
    });
  }

  const held = build(0, true);
  console.log(`\n== Held-out people (never used to choose), at the shipped threshold ${FACE_MATCH_THRESHOLD}`);
  console.log(`same person matched, photo-photo:    ${rate(held.selfie.genuine.length - frr(held.selfie, FACE_MATCH_THRESHOLD), held.selfie.genuine.length)}`);
  console.log(`same person matched, document-photo: ${rate(held.doc.genuine.length - frr(held.doc, FACE_MATCH_THRESHOLD), held.doc.genuine.length)}`);
  console.log(`different people accepted:           ${rate(far(held.all, FACE_MATCH_THRESHOLD), held.all.impostor.length)}`);
  console.log(`EER on held-out pairs: ${pct(eer(held.all).rate)}`);
  const heldFa: string[] = [];
  for (let i = 0; i < photos.length; i++) {
    for (let j = i + 1; j < photos.length; j++) {
      const a = photos[i]!, b = photos[j]!;
      if (!a.heldOut || !b.heldOut || (a.set === b.set && a.person === b.person)) continue;
      const d = dist(selfies[i]![0]!, selfies[j]![0]!);
      if (d <= FACE_MATCH_THRESHOLD) heldFa.push(`${a.label} ~ ${b.label} ${d.toFixed(3)}`);
    }
  }
  if (heldFa.length) console.log(`  held-out photo pairs accepted: ${heldFa.join('; ')}`);

  descriptorMs.sort((a, b) => a - b);
  console.log(`Face-match descriptor per face (median of ${timing.net.length}): chip warp ${q(timing.warp, 0.5).toFixed(1)} ms, network ${q(timing.net, 0.5).toFixed(0)} ms`);
  console.log(`\nPer photo (decode, detector, mesh, antispoof, liveness, descriptor${compare ? `s of ${VARIANTS.length} chips` : ''}), median ${q(descriptorMs, 0.5).toFixed(0)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
