// Face match on real photos (npm-package photos, test/face-match-fixtures.ts): the calibrated
// threshold pinned by pairs on either side of it, and the identity route matching a selfie to the
// portrait on an ID document made from another photo of the same person, refusing another person,
// and reporting its confidence in the decision it took.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityResult } from '../../../../src-shared/contracts/documents';
import { DECISION_MARGIN, descriptorDistance, FACE_MATCH_THRESHOLD, matchFaces, THRESHOLD_SIMILARITY } from '../../core/faces/match';
import { decodeImage, SELFIE_MAX_SIDE } from '../../core/media/image';
import { HOLDERS } from '../document-fixtures';
import { demoFace, documentWithPortrait, manPhoto } from '../face-match-fixtures';
import { closeAll, testService, type TestService } from '../harness';

afterAll(closeAll);

let t: TestService;
let key: { api_key: string };
beforeAll(async () => {
  t = await testService({ plan: 'pro' });
  key = await t.key({ scopes: ['identity'] });
}, 60_000);

/** The face-match descriptor of a photo, as the service computes it for a selfie. */
async function descriptorOf(photo: Buffer): Promise<number[]> {
  const img = await decodeImage('image', photo, { maxSide: SELFIE_MAX_SIDE });
  const a = await t.s.faces.analyze({ ...img, describe: false, match: true });
  const d = a.faces.find((f) => f.descriptor.length)?.descriptor;
  if (!d) throw new Error('no face');
  return d;
}

// Two women in one face-api demo photo (so certainly two people; the closest such pair, distance
// about 0.54), and the man's two least alike photos (about 0.45).
const NEAR_IMPOSTORS = [[5, 727, 94, 272], [5, 1044, 170, 319]] as const;
const HARDEST_GENUINE = [3, 9] as const;
/** A threshold as much looser than the calibrated one as 0.55 was below faceres' 0.68 (FAR 0% → 2%). */
const LOOSER = 0.62;
/**
 * How far apart a photo and its mirror image may lie: with the mirror mean these three lie 0.05-0.07
 * apart (the two chips are cut from landmarks found on each picture, so not quite each other's
 * mirror); the chip alone put them 0.18-0.20 apart.
 */
const MIRROR_LIMIT = 0.11;

describe('the calibrated threshold, on real pairs', () => {
  it('refuses two different women whose distance a looser threshold would accept, and matches the man\'s two least alike photos', async () => {
    const [a, b] = await Promise.all(NEAR_IMPOSTORS.map(([p, x, y, s]) => demoFace(p, x, y, s).then(descriptorOf)));
    const impostor = descriptorDistance(a!, b!);
    expect(matchFaces(a!, b!).face_match).toBe(false);
    // The pair sits between the calibrated threshold and the looser one: moving the threshold out
    // that far accepts it.
    expect(impostor).toBeLessThanOrEqual(LOOSER);
    expect(matchFaces(a!, b!, LOOSER).face_match).toBe(true);

    const [m1, m2] = await Promise.all(HARDEST_GENUINE.map((i) => manPhoto(i).then(descriptorOf)));
    expect(matchFaces(m1!, m2!).face_match).toBe(true);
    expect(FACE_MATCH_THRESHOLD).toBeGreaterThan(descriptorDistance(m1!, m2!));
  }, 60_000);
});

describe('the descriptor, taken with the chip\'s mirror image', () => {
  it('is one descriptor for a face and its mirror image: the same person photographed the other way round is no farther away', async () => {
    const photos = [await manPhoto(3), await manPhoto(9), await demoFace(5, 727, 94, 272)];
    for (const photo of photos) {
      const [plain, mirrored] = await Promise.all([photo, await sharp(photo).flop().toBuffer()].map(descriptorOf));
      const d = descriptorDistance(plain!, mirrored!);
      expect(d).toBeLessThan(MIRROR_LIMIT);
    }
  }, 60_000);
});

describe('identity: selfie against the portrait on an ID document', () => {
  const erika = HOLDERS[1]!;
  const b64 = (b: Buffer) => b.toString('base64');
  const submit = (selfie: Buffer, doc: Buffer) =>
    t.json<IdentityResult & Record<string, unknown>>('POST', '/api/identity/v1/submit', { key: key.api_key, body: { selfie_b64: b64(selfie), id_front_b64: b64(doc) } });

  it('matches the same person from another photo; no descriptor is ever answered', async () => {
    const doc = await documentWithPortrait(erika, await manPhoto(2));
    const { status, body } = await submit(await manPhoto(7), doc);
    expect(status).toBe(200);
    expect(body.face_match).toMatchObject({ is_match: true, threshold: THRESHOLD_SIMILARITY });
    expect(body.face_match.similarity).toBeGreaterThanOrEqual(THRESHOLD_SIMILARITY);
    expect(JSON.stringify(body)).not.toMatch(/descriptor|embedding|mesh/);
    // No run of 128 numbers anywhere in the answer.
    expect(JSON.stringify(body)).not.toMatch(/(-?\d+\.\d+,){100}/);
  }, 90_000);

  it('refuses another person as face_mismatch, with its confidence in that decision (not a mean with the document)', async () => {
    const doc = await documentWithPortrait(erika, await manPhoto(2));
    const { body } = await submit(await demoFace(2, 1379, 105, 347), doc);
    expect(body).toMatchObject({ verified: false, failure_reason: 'face_mismatch', face_match: { is_match: false } });
    const distance = 1 - body.face_match.similarity / 100;
    const expected = 50 + 50 * Math.min(1, (distance - FACE_MATCH_THRESHOLD) / DECISION_MARGIN);
    // The similarity is rounded down to 0.1, so the distance read back from it is within 0.001.
    expect(Math.abs(body.confidence - expected)).toBeLessThanOrEqual(0.3);
    // A clear mismatch: sure that these are two people.
    expect(body.confidence).toBeGreaterThanOrEqual(90);
  }, 90_000);
});
