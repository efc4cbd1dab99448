// The face-match scale and the confidence of an identity decision, as pure logic. (The threshold
// itself is pinned on real photos in test/routes/face-match.test.ts.)
import { describe, expect, it } from 'vitest';
import { identityConfidence } from '../documents/identity';
import { DECISION_MARGIN, decisionConfidence, descriptorDistance, FACE_MATCH_THRESHOLD, matchFaces, similarityOf, THRESHOLD_SIMILARITY } from './match';

/** Two descriptors `d` apart (on the first axis). */
const apart = (d: number): [number[], number[]] => {
  const a = Array.from({ length: 128 }, (_, i) => Math.sin(i) / 10);
  const b = [...a];
  b[0] = b[0]! + d;
  return [a, b];
};

describe('matchFaces', () => {
  it('matches at the threshold distance and not beyond it, and similarity ≥ threshold says the same on the 0-100 scale', () => {
    for (const d of [0.1, FACE_MATCH_THRESHOLD - 0.001, FACE_MATCH_THRESHOLD, FACE_MATCH_THRESHOLD + 0.0004, FACE_MATCH_THRESHOLD + 0.001, 0.9]) {
      const m = matchFaces(...apart(d));
      expect({ d, match: m.face_match }).toEqual({ d, match: d <= FACE_MATCH_THRESHOLD + 1e-12 });
      expect({ d, onScale: m.face_match_confidence >= m.threshold }).toEqual({ d, onScale: m.face_match });
      expect(m.threshold).toBe(THRESHOLD_SIMILARITY);
    }
  });

  it('a missing face (no descriptor) is a certain non-match, similarity 0', () => {
    expect(matchFaces([], apart(0)[0])).toMatchObject({ face_match: false, face_match_confidence: 0, decision_confidence: 100 });
    expect(descriptorDistance([1, 2], [1, 2, 3])).toBe(Number.POSITIVE_INFINITY);
  });

  it('similarity is 100 × (1 − distance), floored at 0', () => {
    expect(similarityOf(0)).toBe(100);
    expect(similarityOf(0.25)).toBe(75);
    expect(similarityOf(1.3)).toBe(0);
  });
});

describe('decision confidence', () => {
  it('is 50 at the threshold and 100 a decision margin away, on either side', () => {
    expect(decisionConfidence(FACE_MATCH_THRESHOLD)).toBe(50);
    expect(decisionConfidence(FACE_MATCH_THRESHOLD + DECISION_MARGIN)).toBe(100);
    expect(decisionConfidence(FACE_MATCH_THRESHOLD - DECISION_MARGIN)).toBe(100);
    expect(decisionConfidence(FACE_MATCH_THRESHOLD + DECISION_MARGIN / 2)).toBe(75);
    expect(decisionConfidence(1.2)).toBe(100);
  });

  it('a failed identity check reports confidence in the failure: a clear face mismatch is near 100, not a mean with the document', () => {
    const authenticity = { is_genuine: true, confidence: 40, checks: [] };
    const clear = { match: matchFaces(...apart(FACE_MATCH_THRESHOLD + 0.3)), assessment: { authenticity } } as unknown as Parameters<typeof identityConfidence>[0];
    expect(identityConfidence(clear, { code: 'face_mismatch' })).toBe(100);
    const close = { match: matchFaces(...apart(FACE_MATCH_THRESHOLD + 0.05)), assessment: { authenticity } } as unknown as Parameters<typeof identityConfidence>[0];
    expect(identityConfidence(close, { code: 'face_mismatch' })).toBe(60);
    // Any other rule missed is a measured fact: the decision not to verify is certain.
    expect(identityConfidence(clear, { code: 'document_expired' })).toBe(100);
    // Verified: the face decision's confidence and the document's, averaged.
    const same = { match: matchFaces(...apart(0.2)), assessment: { authenticity } } as unknown as Parameters<typeof identityConfidence>[0];
    expect(identityConfidence(same, null)).toBe(Math.round(((decisionConfidence(0.2) + 40) / 2) * 10) / 10);
  });
});
