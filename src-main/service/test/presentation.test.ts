// The presentation-attack signals and rules as pure functions: each rule refuses an image made to
// show what it looks for and passes a real selfie. Images are made here by code, in memory; the
// face box is where the selfie fixture puts the face (a 60% margin around it), so no model runs.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { judgeSelfie, PRESENTATION_POLICY, presentationChecks } from '../core/faces/policy';
import { measurePresentation, type PresentationSignals } from '../core/faces/presentation';
import type { FaceAnalysis, FaceBox, FaceReading } from '../core/faces/types';
import { selfie } from './face-fixtures';

interface Img { rgb: Uint8Array; width: number; height: number }

async function rawOf(bytes: Buffer): Promise<Img> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

/** The selfie fixture at `side` px and its face box (the face spans 1/2.2 of the crop, centred). */
async function realSelfie(side = 560): Promise<{ img: Img; box: FaceBox; png: Buffer }> {
  const png = await sharp(await selfie('a')).resize(side, side).png().toBuffer();
  const f = side / 2.2;
  return { img: await rawOf(png), box: { x: (side - f) / 2, y: (side - f) / 2, width: f, height: f }, png };
}

const check = (p: PresentationSignals, name: string) => presentationChecks(p).find((c) => c.policy === name)!;

/** A card's printed paper: a faint gradient, never one flat colour (flat padding is trimmed before measuring). */
function paperCard(width: number, height: number) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const paper = ctx.createLinearGradient(0, 0, width, height);
  paper.addColorStop(0, '#eee7ef');
  paper.addColorStop(1, '#e2ece9');
  ctx.fillStyle = paper;
  ctx.fillRect(0, 0, width, height);
  return { canvas, ctx };
}

describe('document_presented: print around a small face', () => {
  it('refuses a small portrait beside lines of text; passes the selfie and a selfie holding a card beside a large face', async () => {
    // A card: a small face on the left, seven lines of print to its right.
    const canvas = createCanvas(900, 560);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#f1efe6';
    ctx.fillRect(0, 0, 900, 560);
    const face = await loadImage(await sharp(await selfie('a')).resize(260, 330, { fit: 'cover' }).png().toBuffer());
    ctx.drawImage(face, 40, 110, 260, 330);
    ctx.fillStyle = '#1b1f2a';
    ['SURNAME / NOM', 'MUSTERMANN', 'GIVEN NAMES / PRENOMS', 'ERIKA', 'DATE OF BIRTH 12 AUG 1964', 'NATIONALITY DEU', 'EXPIRY 31 OCT 2030'].forEach((s, i) => {
      ctx.font = `${i % 2 ? 30 : 18}px "DejaVu Sans"`;
      ctx.fillText(s, 340, 140 + i * 50);
    });
    const card = await rawOf(canvas.toBuffer('image/png'));
    // The face inside the pasted portrait: 1/2.2 of its width, centred.
    const cardFace = { x: 40 + (260 - 118) / 2, y: 110 + 80, width: 118, height: 118 };
    const doc = measurePresentation(card, cardFace);
    expect(doc.textLines).toBeGreaterThanOrEqual(4);
    expect(check(doc, 'document_presented')).toMatchObject({ passed: false, value: doc.textLength, limit: PRESENTATION_POLICY.documentText });

    const real = await realSelfie();
    const plain = measurePresentation(real.img, real.box);
    expect(check(plain, 'document_presented')).toMatchObject({ passed: true });
    expect(plain.textLength).toBeLessThan(PRESENTATION_POLICY.documentText / 2);

    // The same card held up beside a live face, at the face's distance: a card is about 0.6 of a
    // face wide, so its print is a small fraction of the face's height and does not count.
    const held = createCanvas(900, 560);
    const h = held.getContext('2d');
    h.drawImage(await loadImage(real.png), 0, 0, 560, 560);
    h.drawImage(await loadImage(canvas.toBuffer('image/png')), 560, 260, 0.6 * real.box.width * 1.2, 0.6 * real.box.width * 1.2 * (560 / 900));
    const holding = measurePresentation(await rawOf(held.toBuffer('image/png')), real.box);
    expect(check(holding, 'document_presented')).toMatchObject({ passed: true });
    expect(holding.textLength).toBeLessThan(PRESENTATION_POLICY.documentText / 2);
  });
});

describe('document_presented: print set close beside the portrait', () => {
  it('counts print beside the face that lies inside an oversized detector box, around the face\'s own outline', async () => {
    // A passport-style page: the portrait on the left, its fields right beside it.
    const { canvas, ctx } = paperCard(900, 420);
    ctx.drawImage(await loadImage(await sharp(await selfie('a')).resize(560, 560).extract({ left: 150, top: 120, width: 260, height: 330 }).png().toBuffer()), 20, 40);
    ctx.fillStyle = '#1b1f2a';
    ['SURNAME / NOM', 'MUSTERMANN', 'GIVEN NAMES', 'ERIKA', 'NATIONALITY DEU', 'BORN 12 AUG 1964'].forEach((t, i) => {
      ctx.font = `${i % 2 ? 26 : 16}px "DejaVu Sans"`;
      ctx.fillText(t, 330, 90 + i * 48);
    });
    const page = await rawOf(canvas.toBuffer('image/png'));
    // Where the models put the fixture's face (560 px: box 178,178 204², mesh 215,207 130×146),
    // moved with the cut; the box then cut at the page's left edge and grown, as a detector's box
    // is when the portrait sits at the edge of the picture.
    const outline = { x: 215 - 150 + 20, y: 207 - 120 + 40, width: 130, height: 146 };
    const box = { x: 0, y: 178 - 120 + 40 - 60, width: 330, height: 330 };
    // Around the box alone the fields fall inside the face's surround and are not counted.
    expect(measurePresentation(page, box).textLength).toBeLessThan(PRESENTATION_POLICY.documentText);
    const p = measurePresentation(page, box, 0, outline);
    expect(p.textLines).toBeGreaterThanOrEqual(4);
    expect(check(p, 'document_presented').passed).toBe(false);

    // The live selfie, its surround taken from its outline too, shows no more print than before.
    const real = await realSelfie();
    const selfieBox = { x: 178, y: 178, width: 204, height: 204 };
    const around = measurePresentation(real.img, selfieBox, 0, { x: 215, y: 207, width: 130, height: 146 });
    expect(around.textLength).toBe(measurePresentation(real.img, selfieBox).textLength);
    expect(around.textLength).toBeLessThan(PRESENTATION_POLICY.documentText / 2);
  });
});

describe('document_presented: lines of print set close together', () => {
  it('counts a block of stacked lines (a two-line header set tight on a band) line by line', async () => {
    // An upright card: a header of two lines on a band of security print (which joins them into one
    // block taller than a line), and a large portrait.
    const { canvas, ctx } = paperCard(452, 640);
    ctx.fillStyle = '#7a1f5c';
    ctx.fillRect(20, 40, 412, 92);
    // Security print across the band: fine waves running down it join the two lines into one block.
    ctx.strokeStyle = 'rgba(255,255,255,0.3)';
    ctx.lineWidth = 1;
    for (let x = 30; x < 430; x += 23) {
      ctx.beginPath();
      for (let y = 40; y <= 132; y += 2) ctx.lineTo(x + 4 * Math.sin(y / 6), y);
      ctx.stroke();
    }
    ctx.fillStyle = '#ffffff';
    ctx.font = '27px "DejaVu Sans"';
    ctx.fillText('REPUBLIC OF NORLAND', 34, 76);
    ctx.fillText('IDENTITY CARD / DOCUMENT', 34, 106);
    ctx.drawImage(await loadImage(await sharp(await selfie('a')).resize(196, 240, { fit: 'cover' }).png().toBuffer()), 128, 150, 196, 240);
    // The face inside the portrait: 1/2.2 of the 240 px square it was cut from, centred.
    const f = 240 / 2.2;
    const doc = measurePresentation(await rawOf(canvas.toBuffer('image/png')), { x: 226 - f / 2, y: 270 - f / 2, width: f, height: f });
    expect(doc.textLines).toBeGreaterThanOrEqual(4);
    expect(check(doc, 'document_presented').passed).toBe(false);
  });
});

describe('portrait_frame: a document portrait\'s own edges close around the head', () => {
  /** A portrait pasted on a card with little print: its edges close the head on every side. */
  async function portraitCard(print: boolean): Promise<{ img: Img; box: FaceBox }> {
    const { canvas, ctx } = paperCard(640, 420);
    ctx.drawImage(await loadImage(await sharp(await selfie('a')).resize(220, 290, { fit: 'cover' }).png().toBuffer()), 30, 70, 220, 290);
    if (print) {
      ctx.fillStyle = '#222';
      ctx.font = '20px "DejaVu Sans"';
      ctx.fillText('FERREIRA DA SILVA', 290, 120);
    }
    // The face inside the portrait: the fixture's 1/2.2 of the 290 px square it was cut from, centred.
    const f = 290 / 2.2;
    return { img: await rawOf(canvas.toBuffer('image/png')), box: { x: 140 - f / 2, y: 215 - f / 2, width: f, height: f } };
  }

  it('refuses a portrait closed on four sides, or on three with a face width of print beside it; passes the selfie', async () => {
    const bare = await portraitCard(false);
    const p = measurePresentation(bare.img, bare.box);
    expect(p.portraitSides).toBe(4);
    expect(check(p, 'portrait_frame')).toMatchObject({ passed: false, value: 4, limit: PRESENTATION_POLICY.portraitSides });
    // Three sides alone pass; three with print beside the portrait do not.
    expect(check({ ...p, portraitSides: 3, textLength: 0 }, 'portrait_frame').passed).toBe(true);
    expect(check({ ...p, portraitSides: 3, textLength: PRESENTATION_POLICY.portraitPrint }, 'portrait_frame').passed).toBe(false);
    const printed = await portraitCard(true);
    expect(measurePresentation(printed.img, printed.box).textLength).toBeGreaterThanOrEqual(PRESENTATION_POLICY.portraitPrint);

    const real = await realSelfie();
    const plain = measurePresentation(real.img, real.box);
    expect(plain.portraitSides).toBeLessThanOrEqual(1);
    expect(check(plain, 'portrait_frame').passed).toBe(true);
  });
});

describe('portrait_frame: a portrait the head fills', () => {
  // Where the models put the selfie fixture's face at 560 px (measured once with the face engine):
  // the detector's box, and the mesh's extent (forehead to chin, cheek to cheek), a third smaller.
  const BOX = { x: 178, y: 178, width: 204, height: 204 };
  const OUTLINE = { x: 215, y: 207, width: 130, height: 146 };
  const shift = (b: FaceBox, dx: number, dy: number): FaceBox => ({ ...b, x: b.x + dx, y: b.y + dy });

  it('finds the portrait\'s edges around the face\'s outline when they lie inside the detector\'s box', async () => {
    // A press-style portrait cut close around the head (the face fills it), pasted on a card.
    const real = await realSelfie();
    const cut = { left: 176, top: 140, width: 208, height: 280 };
    const { canvas, ctx } = paperCard(640, 420);
    const at = { x: 60, y: 70 };
    ctx.drawImage(await loadImage(await sharp(real.png).extract(cut).png().toBuffer()), at.x, at.y);
    const card = await rawOf(canvas.toBuffer('image/png'));
    const box = shift(BOX, at.x - cut.left, at.y - cut.top);
    const outline = shift(OUTLINE, at.x - cut.left, at.y - cut.top);

    // The portrait's sides lie inside the detector's box: searched around the box alone, only its
    // top and bottom are found, and the card passes.
    const boxOnly = measurePresentation(card, box);
    expect(boxOnly.portraitSides).toBeLessThanOrEqual(2);
    expect(check(boxOnly, 'portrait_frame').passed).toBe(true);
    // Around the face's outline all four are.
    const withOutline = measurePresentation(card, box, 0, outline);
    expect(withOutline.portraitSides).toBe(4);
    expect(check(withOutline, 'portrait_frame')).toMatchObject({ passed: false, value: 4 });

    // The live selfie, searched around its own outline too, is not boxed in.
    const plain = measurePresentation(real.img, BOX, 0, OUTLINE);
    expect(plain.portraitSides).toBeLessThanOrEqual(1);
    expect(check(plain, 'portrait_frame').passed).toBe(true);
  });
});

describe('a document held askew: print and edges searched at the turn the picture shows', () => {
  /** `png` turned `deg` clockwise about its centre onto a desk, and where a point of it lands. */
  async function turned(png: Buffer, deg: number): Promise<{ img: Img; at: (x: number, y: number) => [number, number] }> {
    const { width: w, height: h } = await sharp(png).metadata();
    const out = await sharp(png).rotate(deg, { background: '#5d4a3a' }).png().toBuffer();
    const { width: W, height: H } = await sharp(out).metadata();
    const a = (deg * Math.PI) / 180;
    const at = (x: number, y: number): [number, number] => {
      const dx = x - w! / 2;
      const dy = y - h! / 2;
      return [W! / 2 + dx * Math.cos(a) - dy * Math.sin(a), H! / 2 + dx * Math.sin(a) + dy * Math.cos(a)];
    };
    return { img: await rawOf(out), at };
  }

  it('refuses a printed card and a print lying on a desk turned 25° either way, with or without the face\'s roll; passes the selfie turned as a tilted phone takes it', async () => {
    const { canvas, ctx } = paperCard(640, 420);
    ctx.drawImage(await loadImage(await sharp(await selfie('a')).resize(220, 290, { fit: 'cover' }).png().toBuffer()), 30, 70, 220, 290);
    ctx.fillStyle = '#222';
    ['SURNAME / NOM', 'FERREIRA DA SILVA', 'DATE OF BIRTH', '14 02 1985', 'NATIONALITY', 'PRT'].forEach((t, i) => {
      ctx.font = `${i % 2 ? 26 : 15}px "DejaVu Sans"`;
      ctx.fillText(t, 290, 110 + i * 42);
    });
    const card = canvas.toBuffer('image/png');
    const print = await realSelfie(360);
    const bordered = await sharp(print.png).extend({ top: 14, bottom: 14, left: 14, right: 14, background: '#f4f1ea' }).png().toBuffer();
    const f = 290 / 2.2;
    for (const deg of [25, -25]) {
      const doc = await turned(card, deg);
      const [x, y] = doc.at(140, 215);
      const onDesk = await turned(bordered, deg);
      const [px, py] = onDesk.at(14 + print.box.x + print.box.width / 2, 14 + print.box.y + print.box.height / 2);
      const w = print.box.width;
      for (const roll of [deg, 0]) {
        const p = measurePresentation(doc.img, { x: x - f / 2, y: y - f / 2, width: f, height: f }, roll);
        const q = measurePresentation(onDesk.img, { x: px - w / 2, y: py - w / 2, width: w, height: w }, roll);
        expect({ deg, roll, document: check(p, 'document_presented').passed, frame: check(q, 'frame_around_face').passed }).toEqual({ deg, roll, document: false, frame: false });
      }
    }

    // A selfie taken with the phone turned 25°: the room turns with the face, cut to an upright picture.
    const real = await realSelfie(560);
    const side = 380;
    const rotated = await sharp(real.png).rotate(25).png().toBuffer();
    const { width: rw } = await sharp(rotated).metadata();
    const tilted = await sharp(rotated).extract({ left: (rw! - side) / 2, top: (rw! - side) / 2, width: side, height: side }).png().toBuffer();
    const fb = real.box.width;
    const p = measurePresentation(await rawOf(tilted), { x: (side - fb) / 2, y: (side - fb) / 2, width: fb, height: fb }, 25);
    expect(presentationChecks(p).filter((c) => !c.passed)).toEqual([]);
  });
});

describe('screen_pattern: a periodic dot or pixel pattern over the face', () => {
  it('refuses the selfie under a fine rotated grid (a display or halftone); passes the selfie, also as a small heavy JPEG', async () => {
    const real = await realSelfie();
    const { rgb, width, height } = real.img;
    const gridded = new Uint8Array(rgb.length);
    const a = (23 * Math.PI) / 180;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const u = (x * Math.cos(a) + y * Math.sin(a)) / 3.4;
        const v = (-x * Math.sin(a) + y * Math.cos(a)) / 3.4;
        const k = 0.75 + 0.25 * Math.cos(2 * Math.PI * u) * Math.cos(2 * Math.PI * v);
        for (let c = 0; c < 3; c++) gridded[(y * width + x) * 3 + c] = Math.round(rgb[(y * width + x) * 3 + c]! * k);
      }
    }
    const screen = measurePresentation({ rgb: gridded, width, height }, real.box);
    expect(check(screen, 'screen_pattern')).toMatchObject({ passed: false, limit: PRESENTATION_POLICY.periodic });
    expect(check(measurePresentation(real.img, real.box), 'screen_pattern').passed).toBe(true);
    // JPEG's 8-pixel blocks are lines in the spectrum, not points: a 250 px q25 copy is not a screen.
    const small = await sharp(real.png).resize(250, 250).jpeg({ quality: 25 }).toBuffer();
    const s = 250 / 560;
    const smallBox = { x: real.box.x * s, y: real.box.y * s, width: real.box.width * s, height: real.box.height * s };
    expect(check(measurePresentation(await rawOf(small), smallBox), 'screen_pattern').passed).toBe(true);
    // The worst case for JPEG: a smooth face at q5-q10, where the blocks dominate the fine detail.
    // Row/column lines and the eighths lattice are not peaks: it stays under half the limit.
    for (const [side, q] of [[250, 5], [250, 10], [560, 10]] as const) {
      const blocky = await sharp(real.png).resize(side, side).blur(2).jpeg({ quality: q }).toBuffer();
      const f = side / 2.2;
      const p = measurePresentation(await rawOf(blocky), { x: (side - f) / 2, y: (side - f) / 2, width: f, height: f });
      expect({ side, q, low: p.periodic < PRESENTATION_POLICY.periodic / 2 }).toEqual({ side, q, low: true });
    }
  });
});

describe('colour_fringes: a screen\'s sub-pixel colours over the face', () => {
  it('refuses the selfie seen through red, green and blue stripes; passes the selfie', async () => {
    const real = await realSelfie();
    const { rgb, width, height } = real.img;
    const striped = new Uint8Array(rgb.length);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        for (let c = 0; c < 3; c++) {
          // Every third column lights one channel more than the others: sub-pixel stripes, resampled.
          const lit = (x + c) % 3 === 0 ? 1.35 : 0.8;
          striped[(y * width + x) * 3 + c] = Math.min(255, Math.round(rgb[(y * width + x) * 3 + c]! * lit));
        }
      }
    }
    expect(check(measurePresentation({ rgb: striped, width, height }, real.box), 'colour_fringes')).toMatchObject({ passed: false });
    expect(check(measurePresentation(real.img, real.box), 'colour_fringes').passed).toBe(true);
  });
});

describe('frame_around_face: the edges of a print, card or screen around the face', () => {
  it('refuses the selfie as a print lying on a desk; passes the selfie', async () => {
    const real = await realSelfie(360);
    const desk = await sharp({ create: { width: 640, height: 600, channels: 3, background: '#6f5a46' } })
      .composite([{ input: await sharp(real.png).extend({ top: 14, bottom: 14, left: 14, right: 14, background: '#f4f1ea' }).toBuffer(), left: 130, top: 110 }])
      .png().toBuffer();
    const box = { ...real.box, x: real.box.x + 144, y: real.box.y + 124 };
    const framed = measurePresentation(await rawOf(desk), box);
    expect(framed.frameSides).toBe(4);
    expect(check(framed, 'frame_around_face')).toMatchObject({ passed: false, value: 4, limit: PRESENTATION_POLICY.frameSides });
    expect(check(measurePresentation(real.img, real.box), 'frame_around_face').passed).toBe(true);
  });

  it('does not take uniform padding (a clip padded onto white, a flat border) for a frame', async () => {
    const real = await realSelfie(400);
    const padded = await sharp(real.png).extend({ left: 120, right: 120, top: 60, bottom: 60, background: '#ffffff' }).png().toBuffer();
    const p = measurePresentation(await rawOf(padded), { ...real.box, x: real.box.x + 120, y: real.box.y + 60 });
    expect(p.frameSides).toBeLessThan(PRESENTATION_POLICY.frameSides);
    expect(p.faceShare).toBeCloseTo(real.box.width / 400, 2);
  });
});

describe('judgeSelfie with the image rules', () => {
  const face = (over: Partial<FaceReading> = {}): FaceReading => ({
    box: { x: 200, y: 150, width: 240, height: 240 }, score: 0.95, age: null, gender: null, antispoof: 0.8, liveness: 0.9,
    pose: { yaw: 2, pitch: 1, roll: 0 }, eyes: { left: 0.3, right: 0.3 }, embedding: [], descriptor: [], ...over,
  });
  const signals = (over: Partial<PresentationSignals> = {}): PresentationSignals => ({
    faceShare: 0.4, textLines: 0, textLength: 0, periodic: 0.3, colourFringes: 0.02, frameSides: 0, frameCoverage: 0.5, portraitSides: 0, ms: 3, ...over,
  });
  const analysis = (f: FaceReading, p: PresentationSignals | null): FaceAnalysis => ({ width: 640, height: 480, faces: [f], presentation: p, inferenceMs: 50 });

  it('a document is refused as spoof_suspected even where a smaller rule would also fail, with the rule, its value and limit', () => {
    const v = judgeSelfie(analysis(face({ box: { x: 100, y: 100, width: 60, height: 60 } }), signals({ faceShare: 0.1, textLength: 6, textLines: 9 })));
    expect(v.failure).toBe('spoof_suspected');
    expect(v.failureText).toMatch(/identity document/);
    expect(v.checks.find((c) => c.policy === 'document_presented')).toEqual({ policy: 'document_presented', passed: false, value: 6, limit: PRESENTATION_POLICY.documentText });
    expect(v.checks.find((c) => c.policy === 'face_size')?.passed).toBe(false);
  });

  it('the other image rules come after the face rules: a framed face too small to judge is face_too_small', () => {
    const v = judgeSelfie(analysis(face({ box: { x: 100, y: 100, width: 60, height: 60 } }), signals({ frameSides: 4, periodic: 2 })));
    expect(v.failure).toBe('face_too_small');
    expect(v.checks.filter((c) => !c.passed).map((c) => c.policy)).toEqual(['face_size', 'screen_pattern', 'frame_around_face']);
  });

  it('each image rule fails at its limit and passes just below it', () => {
    const cases: [string, Partial<PresentationSignals>, Partial<PresentationSignals>][] = [
      ['document_presented', { textLength: PRESENTATION_POLICY.documentText }, { textLength: PRESENTATION_POLICY.documentText - 0.01 }],
      ['screen_pattern', { periodic: PRESENTATION_POLICY.periodic }, { periodic: PRESENTATION_POLICY.periodic - 0.01 }],
      ['colour_fringes', { colourFringes: PRESENTATION_POLICY.colourFringes }, { colourFringes: PRESENTATION_POLICY.colourFringes - 0.01 }],
      ['frame_around_face', { frameSides: PRESENTATION_POLICY.frameSides }, { frameSides: PRESENTATION_POLICY.frameSides - 1 }],
    ];
    for (const [rule, fails, passes] of cases) {
      const refused = judgeSelfie(analysis(face(), signals(fails)));
      expect({ rule, failure: refused.failure, missed: refused.checks.filter((c) => !c.passed).map((c) => c.policy) }).toEqual({ rule, failure: 'spoof_suspected', missed: [rule] });
      expect({ rule, failure: judgeSelfie(analysis(face(), signals(passes))).failure }).toEqual({ rule, failure: null });
    }
  });

  it('the confidence of a refusal grows with how far past the limit the evidence is; a pass keeps the realness formula', () => {
    const at = judgeSelfie(analysis(face(), signals({ periodic: PRESENTATION_POLICY.periodic })));
    const far = judgeSelfie(analysis(face(), signals({ periodic: PRESENTATION_POLICY.periodic * 2 })));
    expect(at.confidence).toBeCloseTo(100 * 0.95 * 0.5, 1);
    expect(far.confidence).toBeCloseTo(100 * 0.95, 1);
    const pass = judgeSelfie(analysis(face(), signals()));
    expect(pass.confidence).toBeCloseTo(100 * 0.95 * (0.5 + 0.5 * 0.85), 1);
  });

  it('without signals (no image measured) only the model rules apply', () => {
    const v = judgeSelfie(analysis(face(), null));
    expect(v.failure).toBeNull();
    expect(v.checks.map((c) => c.policy)).toEqual(['one_face', 'detection_score', 'face_size', 'frontal_pose', 'presentation_attack']);
  });
});
