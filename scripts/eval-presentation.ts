// Presentation-attack evaluation: `npm run eval:presentation [-- --photos DIR] [--dump FILE] [--save-missed DIR]`.
// Builds, by code and in memory, real single-face photos, photos of identity documents, cards and
// pages with a face beside text, and screen and print recaptures of the real faces; runs each
// through the face engine and the selfie rules exactly as /api/verify does (640 px, no
// description model), and prints per-rule refusal rates, per set and family, with counts.
//
// Split: faces from the face-api demo photos and the folder's `dlib-` photos are the development
// faces (the limits were set on them, with the `screen-stripe` and `print-halftone` families);
// every other source's faces, and the `screen-diamond` and `print-inkjet` families, are held out.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFaceEngine, type FaceEngine } from '../src-main/service/core/faces/engine';
import { judgeSelfie, PRESENTATION_RULES } from '../src-main/service/core/faces/policy';
import { measurePresentation } from '../src-main/service/core/faces/presentation';
import { decodeImage, SELFIE_MAX_SIDE } from '../src-main/service/core/media/image';
import { DEGRADATIONS, degrade, HOLDERS, renderSpecimen, type DocKind } from '../src-main/service/test/document-fixtures';
import { cropFaces, folderPhotos, packagedPhotos, type RealCrop } from './support/real-photos';
import { HELD_OUT_LAYOUTS, ID_LAYOUTS, renderIdDocument, shootIdDocument, SHOTS, type IdDocument } from './support/id-documents';
import { faceCard, facePage, photographDocument, printRecapture, screenRecapture } from './support/recapture';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const photosDir = arg('--photos') ?? process.env.PAD_PHOTOS;
const dumpFile = arg('--dump');
const limit = Number(arg('--limit') ?? 0);
const only = arg('--only');
/** Where to write the documents that passed as selfies, to look at them (generated images only). */
const missedDir = arg('--save-missed');

const DEV_SOURCES = new Set(['face-api-demo', 'dlib']);

interface Sample { set: string; family: string; heldOut: boolean; name: string; make: () => Promise<Buffer> }
/** A few analysed images kept to time the signals alone afterwards (min of repeats: this machine is shared). */
const timed: { set: string; rgb: Uint8Array; width: number; height: number; box: { x: number; y: number; width: number; height: number } }[] = [];

interface Outcome extends Omit<Sample, 'make'> { failure: string | null; missed: string[]; otherMissed: string[]; signals: unknown; ms: number }

async function judgeBytes(engine: FaceEngine, s: Sample): Promise<Outcome> {
  const { make, ...about } = s;
  const bytes = await make();
  const img = await decodeImage('file', bytes, { maxSide: SELFIE_MAX_SIDE });
  const analysis = await engine.analyze({ ...img, describe: false });
  const v = judgeSelfie(analysis);
  if (missedDir && s.set === 'document' && !v.failure) {
    mkdirSync(missedDir, { recursive: true });
    writeFileSync(join(missedDir, `${s.family} ${s.name}`.replace(/[^\w.-]+/g, '_') + '.jpg'), bytes);
  }
  const largest = [...analysis.faces].sort((a, b) => b.box.width - a.box.width)[0];
  if (largest && timed.filter((t) => t.set === s.set).length < 12) timed.push({ set: s.set, rgb: img.rgb, width: img.width, height: img.height, box: largest.box });
  const rules = new Set<string>(PRESENTATION_RULES);
  const missed = v.checks.filter((c) => !c.passed).map((c) => c.policy);
  return {
    ...about, failure: v.failure, missed: missed.filter((m) => rules.has(m)), otherMissed: missed.filter((m) => !rules.has(m)),
    signals: analysis.presentation ?? null, ms: analysis.presentation?.ms ?? 0,
  };
}

async function main() {
  const started = Date.now();
  const engine = await loadFaceEngine();
  await engine.warm();

  // Real faces.
  const photos = [...packagedPhotos(), ...(photosDir ? folderPhotos(photosDir) : [])];
  const crops: RealCrop[] = [];
  for (const [i, p] of photos.entries()) crops.push(...(await cropFaces(engine, p, 1000 + i)));
  const samples: Sample[] = [];
  for (const c of crops) {
    samples.push({ set: 'real', family: `real-${c.form}`, heldOut: !DEV_SOURCES.has(c.source), name: `${c.source}/${c.name}`, make: async () => c.bytes });
  }
  // Recaptures of each real face (its phone-sized crop).
  const phones = crops.filter((c) => c.form === 'phone');
  for (const [i, c] of phones.entries()) {
    const held = !DEV_SOURCES.has(c.source);
    const name = `${c.source}/${c.name}`;
    samples.push({ set: 'screen', family: 'screen-stripe', heldOut: held, name, make: () => screenRecapture(c.bytes, 50_000 + i, 'screen-stripe') });
    samples.push({ set: 'print', family: 'print-halftone', heldOut: held, name, make: () => printRecapture(c.bytes, 60_000 + i, 'print-halftone') });
    samples.push({ set: 'screen', family: 'screen-diamond', heldOut: true, name, make: () => screenRecapture(c.bytes, 70_000 + i, 'screen-diamond') });
    samples.push({ set: 'print', family: 'print-inkjet', heldOut: true, name, make: () => printRecapture(c.bytes, 80_000 + i, 'print-inkjet') });
  }
  // Identity documents: every holder in the three formats, each degradation, and photographed on a desk and in a hand.
  const kinds: DocKind[] = ['td3', 'td1', 'td2'];
  for (const [hi, h] of HOLDERS.entries()) {
    for (const kind of kinds) {
      let rendered: Promise<Buffer> | null = null;
      const png = () => (rendered ??= renderSpecimen(h, { kind }));
      const name = `${h.surname}/${kind}`;
      for (const d of DEGRADATIONS) samples.push({ set: 'document', family: `specimen-${d}`, heldOut: false, name, make: async () => degrade(await png(), d, hi + 1) });
      samples.push({ set: 'document', family: 'specimen-desk', heldOut: false, name, make: async () => photographDocument(await png(), 90_000 + hi * 7 + kinds.indexOf(kind), 'desk') });
      samples.push({ set: 'document', family: 'specimen-hand', heldOut: false, name, make: async () => photographDocument(await png(), 91_000 + hi * 7 + kinds.indexOf(kind), 'hand') });
    }
  }
  // Cards and pages of other layouts, with the real faces.
  for (const [i, c] of phones.entries()) {
    const held = !DEV_SOURCES.has(c.source);
    samples.push({ set: 'document', family: 'card', heldOut: held, name: `${c.source}/${c.name}`, make: () => faceCard(c.bytes, 100_000 + i) });
    samples.push({ set: 'document', family: 'page', heldOut: held, name: `${c.source}/${c.name}`, make: () => facePage(c.bytes, 110_000 + i) });
  }

  // Identity documents of many layouts around the real faces, each shot one of five ways; the
  // `us-licence`, `residence-card` and `td2-card` layouts are held out.
  for (const [i, c] of phones.entries()) {
    for (const [li, layout] of ID_LAYOUTS.entries()) {
      const shot = SHOTS[(i + li) % SHOTS.length]!;
      const seed = 120_000 + i * 16 + li;
      let rendered: Promise<IdDocument> | null = null;
      samples.push({
        set: 'document', family: `id-${layout}`, heldOut: HELD_OUT_LAYOUTS.has(layout), name: `${c.source}/${c.name} ${shot}`,
        make: async () => shootIdDocument(await (rendered ??= renderIdDocument(c.bytes, seed, layout)), seed + 1, shot),
      });
    }
  }

  // Held askew (turned 15-40°, further than any shot above), one layout per face in turn: held out.
  for (const [i, c] of phones.entries()) {
    const layout = ID_LAYOUTS[i % ID_LAYOUTS.length]!;
    const seed = 130_000 + i * 16;
    samples.push({
      set: 'document', family: 'id-askew', heldOut: true, name: `${c.source}/${c.name} ${layout} askew`,
      make: async () => shootIdDocument(await renderIdDocument(c.bytes, seed, layout), seed + 1, 'askew'),
    });
  }

  const chosen = only ? samples.filter((x) => x.set === only || x.family.startsWith(only)) : samples;
  const todo = limit ? chosen.filter((_, i) => i % Math.ceil(chosen.length / limit) === 0) : chosen;
  process.stderr.write(`${crops.length} real crops; judging ${todo.length} of ${samples.length} images\n`);
  const outcomes: Outcome[] = [];
  if (dumpFile) writeFileSync(dumpFile, '');
  for (const [i, s] of todo.entries()) {
    const o = await judgeBytes(engine, s);
    outcomes.push(o);
    if (dumpFile) appendFileSync(dumpFile, `${JSON.stringify(o)}\n`);
    if (i % 50 === 49) process.stderr.write(`${i + 1}/${todo.length} ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  report(outcomes);
  const mins: number[] = [];
  for (const t of timed) {
    let best = Infinity;
    for (let k = 0; k < 5; k++) {
      const t0 = performance.now();
      measurePresentation(t, t.box);
      best = Math.min(best, performance.now() - t0);
    }
    mins.push(best);
  }
  mins.sort((a, b) => a - b);
  console.log(`signals alone on ${mins.length} analysed images (best of 5 each): median ${mins[Math.floor(mins.length / 2)]?.toFixed(1)} ms, max ${mins.at(-1)?.toFixed(1)} ms`);
  console.log(`\n${outcomes.length} images, ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');

function report(all: Outcome[]) {
  const rules = [...PRESENTATION_RULES];
  const head = ['set', 'family', 'split', 'n', 'face found', 'refused (any rule)', 'spoof_suspected', ...rules];
  const rows: string[][] = [];
  const groups = new Map<string, Outcome[]>();
  for (const o of all) {
    const k = `${o.set}|${o.family}|${o.heldOut ? 'held-out' : 'dev'}`;
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  const line = (set: string, family: string, split: string, os: Outcome[]) => {
    const found = os.filter((o) => o.failure !== 'no_face_detected');
    rows.push([
      set, family, split, String(os.length), String(found.length),
      `${os.filter((o) => o.failure).length} (${pct(os.filter((o) => o.failure).length, os.length)})`,
      `${os.filter((o) => o.failure === 'spoof_suspected').length} (${pct(os.filter((o) => o.failure === 'spoof_suspected').length, os.length)})`,
      ...rules.map((r) => String(os.filter((o) => o.missed.includes(r)).length)),
    ]);
  };
  for (const [k, os] of [...groups.entries()].sort()) {
    const [set, family, split] = k.split('|') as [string, string, string];
    line(set, family, split, os);
  }
  for (const set of ['real', 'document', 'screen', 'print']) {
    for (const split of ['dev', 'held-out']) {
      const os = all.filter((o) => o.set === set && (o.heldOut ? 'held-out' : 'dev') === split);
      if (os.length) line(set, 'ALL', split, os);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));

  // False refusals: real photos that meet every other rule but are refused by a presentation rule.
  for (const split of [false, true]) {
    const real = all.filter((o) => o.set === 'real' && o.heldOut === split && o.otherMissed.length === 0);
    const refused = real.filter((o) => o.missed.length > 0);
    console.log(`\nreal photos meeting every other rule (${split ? 'held-out' : 'dev'}): ${real.length}; refused by a presentation rule: ${refused.length} (${pct(refused.length, real.length)})`);
    for (const o of refused) console.log(`  ${o.family} ${o.name}: ${o.missed.join(', ')}`);
    const attacks = all.filter((o) => (o.set === 'screen' || o.set === 'print') && o.heldOut === split);
    const found = attacks.filter((o) => o.failure !== 'no_face_detected');
    console.log(`print/screen recaptures (${split ? 'held-out' : 'dev'}): ${attacks.length}; refused ${attacks.filter((o) => o.failure).length} (${pct(attacks.filter((o) => o.failure).length, attacks.length)}); ` +
      `with a face found ${found.length}, refused as spoof_suspected ${found.filter((o) => o.failure === 'spoof_suspected').length} (${pct(found.filter((o) => o.failure === 'spoof_suspected').length, found.length)})`);
  }
  for (const shot of [...SHOTS, 'askew']) {
    const ids = all.filter((o) => o.family.startsWith('id-') && o.name.endsWith(` ${shot}`));
    if (ids.length) console.log(`identity documents shot ${shot}: ${ids.length}; refused ${ids.filter((o) => o.failure).length} (${pct(ids.filter((o) => o.failure).length, ids.length)}), as spoof_suspected ${ids.filter((o) => o.failure === 'spoof_suspected').length}`);
  }
  const docs = all.filter((o) => o.set === 'document');
  const docFaces = docs.filter((o) => o.failure !== 'no_face_detected');
  console.log(`documents, cards, pages: ${docs.length}; refused ${docs.filter((o) => o.failure).length} (${pct(docs.filter((o) => o.failure).length, docs.length)}); ` +
    `with a face found ${docFaces.length}, refused as spoof_suspected ${docFaces.filter((o) => o.failure === 'spoof_suspected').length}`);
  for (const o of docs.filter((d) => !d.failure)) console.log(`  passed: ${o.family} ${o.name}`);
  // The targets (issue 37, item 6) on this set; the face-match and document-field targets
  // are measured by `npm run calibrate:faces` and `npm run bench:documents`.
  const ids = all.filter((o) => o.family.startsWith('id-') || o.family.startsWith('specimen-'));
  const attacksHeld = all.filter((o) => (o.set === 'screen' || o.set === 'print') && o.heldOut);
  const realOk = all.filter((o) => o.set === 'real' && o.otherMissed.length === 0);
  const realPass = realOk.filter((o) => o.missed.length === 0);
  console.log('\ntargets (issue 37) on this set:');
  console.log(`  photos of ID documents refused as selfies: ${ids.filter((o) => o.failure).length} of ${ids.length} (${pct(ids.filter((o) => o.failure).length, ids.length)}; target 100%)`);
  console.log(`  print and screen recaptures refused (held-out faces or families): ${attacksHeld.filter((o) => o.failure).length} of ${attacksHeld.length} (${pct(attacksHeld.filter((o) => o.failure).length, attacksHeld.length)}; target ≥ 80%)`);
  console.log(`  real selfies that meet the face rules passing the image rules: ${realPass.length} of ${realOk.length} (${pct(realPass.length, realOk.length)}; target ≥ 95%)`);
  const ms = all.map((o) => o.ms).sort((a, b) => a - b);
  console.log(`signals time per image: median ${ms[Math.floor(ms.length / 2)]} ms, p95 ${ms[Math.floor(ms.length * 0.95)]} ms, max ${ms[ms.length - 1]} ms (in-process, 2 shared cores)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
