// Finding the page in a picture: generated photos whose page corners are known, a flat scan, and
// pictures that hold no document. The flattened page is compared with the page as rendered, so a
// page found but warped wrong, or left upside down, fails too.
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { generateHolder, photograph, renderPage, scan, seeded, type Capture, type PhotoOptions, type RenderedPage } from '../../test/document-generator';
import { noFace, selfie } from '../../test/face-fixtures';
import { findPageBoundary, locatePage } from './locate';
import type { RgbImage } from './ocr';

/** Decoded as the service decodes a document (at most 1600 px on the longer side). */
async function decoded(bytes: Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(bytes).resize(1600, 1600, { fit: 'inside', withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Normalised cross-correlation of two pictures' grey levels at 64 × 45 (1 = the same picture). */
async function likeness(a: RgbImage, page: RenderedPage): Promise<number> {
  const grey = async (s: Sharp) => new Float64Array(await s.resize(64, 45, { fit: 'fill' }).grayscale().raw().toBuffer());
  const x = await grey(sharp(a.rgb, { raw: { width: a.width, height: a.height, channels: 3 } }));
  const y = await grey(sharp(page.png));
  const mean = (v: Float64Array) => v.reduce((s, t) => s + t, 0) / v.length;
  const [mx, my] = [mean(x), mean(y)];
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const page = (family: Parameters<typeof renderPage>[0], seed: number) => renderPage(family, generateHolder(seeded(seed)), seed, family.startsWith('td3') ? 13 : 18);

async function photo(family: Parameters<typeof renderPage>[0], seed: number, opts: PhotoOptions): Promise<{ p: RenderedPage; capture: Capture; img: RgbImage; k: number }> {
  const p = await page(family, seed);
  const capture = await photograph(p, seed, opts);
  const img = await decoded(capture.bytes);
  return { p, capture, img, k: img.width / capture.width };
}

describe('locating the page in a photo', () => {
  it.each([
    ['td3-classic', 11, { rotation: 10, tilt: 0.1, desk: 'wood' }],
    ['td1-card', 12, { rotation: -13, tilt: 0.12, desk: 'cloth' }],
    ['td2-card', 13, { rotation: 6, tilt: 0.08, desk: 'dark', glare: true }],
  ] as const)('finds the corners of a %s page on a desk within 1 percent of the picture and flattens it upright', async (family, seed, opts) => {
    const { p, capture, img, k } = await photo(family, seed, { ...opts });
    const found = await findPageBoundary(img);
    expect(found).not.toBeNull();
    const tolerance = 0.01 * Math.hypot(img.width, img.height);
    found!.corners.forEach(([x, y], i) => {
      const [ex, ey] = capture.corners[i]!;
      expect(Math.hypot(x - ex * k, y - ey * k), `corner ${i}`).toBeLessThan(tolerance);
    });
    const located = await locatePage(img);
    expect(located).not.toBeNull();
    expect(located!.turned).toBe(0);
    // The page's own shape, not the foreshortened one.
    expect(located!.page.width / located!.page.height).toBeCloseTo(p.width / p.height, 1);
    expect(await likeness(located!.page, p)).toBeGreaterThan(0.85);
    // The picture as it came does not look like the page (so the measure above proves the warp).
    expect(await likeness(img, p)).toBeLessThan(0.6);
  }, 60_000);

  it.each([
    [172, [2000, 1500], 180],
    [95, [1500, 2000], 270],
    [-87, [1500, 2000], 90],
  ] as const)('turns a page photographed at %i° the right way up', async (rotation, size, turned) => {
    const { p, img } = await photo('td3-trilingual', 14, { rotation, tilt: 0.06, desk: 'dark', size: [size[0], size[1]] });
    const located = await locatePage(img);
    expect(located?.turned).toBe(turned);
    expect(await likeness(located!.page, p)).toBeGreaterThan(0.85);
  }, 60_000);

  it('leaves a flat scan alone: the page already fills the picture squarely', async () => {
    for (const seed of [21, 22]) {
      const img = await decoded((await scan(await renderPage('td3-beside', generateHolder(seeded(seed)), seed, 11), seed)).bytes);
      expect(await locatePage(img)).toBeNull();
    }
  }, 60_000);

  it('finds no page in a picture without a document: a selfie, shapes on a gradient, an empty desk, a blank card', async () => {
    expect(await findPageBoundary(await decoded(await selfie('a')))).toBeNull();
    expect(await findPageBoundary(await decoded(await noFace()))).toBeNull();
    const blank = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#8a6240' } }).jpeg().toBuffer();
    expect(await findPageBoundary(await decoded(blank))).toBeNull();
    // A blank card of a page's shape and size on the desk: straight edges all round, but no print inside.
    const card = await sharp({ create: { width: 900, height: 634, channels: 3, background: '#f1eee6' } }).png().toBuffer();
    const blankCard = await sharp(blank).composite([{ input: card, left: 350, top: 280 }]).jpeg().toBuffer();
    expect(await findPageBoundary(await decoded(blankCard))).toBeNull();
  }, 60_000);
});
