// Why an identity check did not verify, for a zone that did not settle before the read's time was
// up (issue 37): unreadable (send a sharper photo), not inconsistent (the document failed its
// checks), since nothing was proven wrong; the same zone read without a spent budget stays
// inconsistent. Through readDocument with a stand-in text reader, assessDocument and identityFailure.
import { describe, expect, it } from 'vitest';
import { generatedMrz, generateHolder, seeded } from '../../test/document-generator';
import type { JudgedSelfie } from '../faces/selfie';
import type { FaceReading } from '../faces/types';
import { assessDocument } from './assess';
import { identityFailure, type IdentityCheck } from './identity';
import type { TextBox, TextReader } from './ocr';
import { readDocument } from './reader';

const box = (text: string, y: number): TextBox => ({ text, probs: [...text].map(() => 0.99), box: [[20, y], [620, y], [620, y + 24], [20, y + 24]] });
const blank = { rgb: new Uint8Array(640 * 450 * 3).fill(235), width: 640, height: 450 };

describe('a zone whose check digits do not hold', () => {
  const h = generateHolder(seeded(95));
  const [l1, l2] = generatedMrz(h, 'td3');
  const broken = `${l2!.slice(0, 13)}${l2![13] === '1' ? '2' : '1'}${l2!.slice(14)}`;
  const reader = (ms: number): TextReader => ({
    read: async () => {
      await new Promise((r) => setTimeout(r, ms));
      return { boxes: [box(l1!, 360), box(broken, 400)], ms: { detect: 0, recognise: 0 } };
    },
  });
  // A selfie that met every rule and matched the document: only the document is in question.
  const check = (reading: Awaited<ReturnType<typeof readDocument>>): IdentityCheck => ({
    selfie: { verdict: { failure: null }, evidence: 'still_photo' } as unknown as JudgedSelfie,
    portrait: {} as FaceReading,
    match: { face_match: true, face_match_confidence: 90, threshold: 48, decision_confidence: 90 },
    reading,
    assessment: assessDocument(reading, 1, new Date('2026-06-01T00:00:00Z')),
  });

  it('when the read\'s time was up, is unreadable: the person is asked for a sharper photo', async () => {
    const reading = await readDocument(reader(40), blank, { budgetMs: 50 });
    expect(reading.budgetSpent).toBe(true);
    expect(identityFailure(check(reading), [])).toMatchObject({ code: 'document_unreadable', text: expect.stringContaining('could not be read in time') });
  });

  it('read to the end of its retries, stays a document that failed its checks', async () => {
    const reading = await readDocument(reader(0), blank, { budgetMs: 60_000 });
    expect(reading.budgetSpent).toBeUndefined();
    expect(identityFailure(check(reading), [])).toMatchObject({ code: 'document_inconsistent' });
  });
});
