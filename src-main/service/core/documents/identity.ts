// Identity by selfie and ID document: the selfie through the selfie rules, the document read in
// the reader process and its portrait found by the face models, at the same time; then the face
// match, the document's assessment and the decision. Everything lives for the request only.
// Face match uses the face-match descriptor only (faceres, the age model, does not run here: nothing
// in identity reads an age from a face).
import { REVIEW_FIELDS, type ClaimComparison, type IdentityResult, type ReviewFlag } from '../../../../src-shared/contracts/documents';
import { matchFaces, type FaceMatch } from '../faces/match';
import type { FacePool } from '../faces/pool';
import { analysisBlock, failureText, judgeTaken, takeSelfie, type JudgedSelfie } from '../faces/selfie';
import { hashDistance, pictureHash, SAME_PICTURE_BITS } from '../faces/presentation/same-picture';
import type { FaceReading } from '../faces/types';
import { ANALYSIS_MAX_SIDE, decodeImage, scaleDecoded } from '../media/image';
import { assessDocument, refusingChecks, type Assessment } from './assess';
import type { DocumentReader } from './pool';
import type { DocumentReading } from './reader';

/** The document is searched for its portrait at this size (a face is a third of a card's height). */
const PORTRAIT_SEARCH_SIDE = 1024;

export interface IdentityImages {
  selfie: { field: string; bytes: Uint8Array };
  front: { field: string; bytes: Uint8Array };
  back?: { field: string; bytes: Uint8Array } | undefined;
}

export interface IdentityCheck {
  selfie: JudgedSelfie;
  portrait: FaceReading | null;
  match: FaceMatch;
  reading: DocumentReading | null;
  assessment: Assessment;
}

/**
 * The selfie held to one more rule identity can apply: it is not the ID document's own picture (the
 * card photo sent as both). Reported with its value either way; a failure is a presentation attack.
 */
function notTheDocument(selfie: JudgedSelfie, bits: number): JudgedSelfie {
  const passed = bits > SAME_PICTURE_BITS;
  const check = { policy: 'not_the_document' as const, passed, value: bits, limit: SAME_PICTURE_BITS };
  const v = selfie.verdict;
  if (passed || v.failure) return { ...selfie, verdict: { ...v, checks: [...v.checks, check] } };
  return {
    ...selfie,
    verdict: { ...v, checks: [...v.checks, check], failure: 'spoof_suspected', failureText: 'The selfie is a picture of the ID document, not a photo of the person', confidence: 100 },
  };
}

const largest = (faces: FaceReading[]) => [...faces].sort((a, b) => b.box.width - a.box.width)[0] ?? null;

/** Decodes every image first (so a bad image is refused before any model runs), then analyses. */
export async function checkIdentity(faces: FacePool, documents: DocumentReader, images: IdentityImages, now: Date): Promise<IdentityCheck> {
  // A photo, or a clip: every product with a selfie takes the head-turn clip, held to the challenge (issue 37).
  const taken = await takeSelfie(images.selfie.field, images.selfie.bytes);
  const front = await decodeImage(images.front.field, images.front.bytes, { maxSide: ANALYSIS_MAX_SIDE });
  const frontSmall = await scaleDecoded(front, PORTRAIT_SEARCH_SIDE);
  const back = images.back ? await decodeImage(images.back.field, images.back.bytes, { maxSide: ANALYSIS_MAX_SIDE }) : null;
  const [judged, portraitAnalysis, frontReading] = await Promise.all([
    judgeTaken(faces, taken, { describe: false, match: true, challenge: true }),
    faces.analyze({ ...frontSmall, describe: false, match: true, portrait: true }),
    documents.read(front),
  ]);
  let reading = frontReading;
  // Cards carry the MRZ on the back: read it when the front has none; the printed fields stay the front's.
  if (!reading.mrz && back) {
    const backReading = await documents.read(back);
    if (backReading.mrz) reading = { ...backReading, printed: { ...backReading.printed, ...frontReading.printed }, ms: frontReading.ms + backReading.ms };
  }
  const portrait = largest(portraitAnalysis.faces.filter((f) => f.score >= 0.5));
  const selfie = taken.kind === 'photo' ? notTheDocument(judged, hashDistance(pictureHash(taken.image), pictureHash(front))) : judged;
  // No face on either side is a certain non-match (descriptors missing: distance infinite).
  const match = matchFaces(selfie.verdict.face?.descriptor ?? [], portrait?.descriptor ?? []);
  return { selfie, portrait, match, reading, assessment: assessDocument(reading, portrait ? 1 : 0, now) };
}

/**
 * A zone whose check digits do not hold, not proven wrong because it was not read: identity answers
 * it unreadable (send a sharper photo), not inconsistent. `in_time`: the read's time was up before
 * it settled (reader.ts READ_BUDGET_MS). `unclear`: it was read with more characters unsure or
 * repaired than `mrz_read_confidence` allows (mrz.ts LOW_CONFIDENCE_LIMIT): on small, blurred
 * photos of correct documents a failed check digit came with 8-45 unsure characters, forgeries'
 * own wrong digits mostly with 0-4 (docs/documents.md). Null when the zone holds, or was read
 * clearly and still fails: that document failed its checks.
 */
export function unreadZone(reading: DocumentReading | null | undefined, a: Pick<Assessment, 'mrz' | 'authenticity'>): 'in_time' | 'unclear' | null {
  if (!a.mrz?.checkDigits.some((c) => !c.valid)) return null;
  if (reading?.budgetSpent) return 'in_time';
  return a.authenticity.checks.some((c) => c.check === 'mrz_read_confidence' && c.result === 'fail') ? 'unclear' : null;
}

/**
 * Why an identity check did not verify, first reason first; null when it verified. `reviewFields`
 * are the fields whose review flags stop it (age by ID takes only the date of birth from the
 * document, so a name left for review does not stop that; a century left for review does).
 */
export function identityFailure(
  r: IdentityCheck, claims: ClaimComparison[], reviewFields: readonly ReviewFlag['field'][] = REVIEW_FIELDS,
): { code: string; text: string } | null {
  const a = r.assessment;
  if (!a.mrz) return { code: 'document_unreadable', text: 'The ID document could not be read: send a sharp, well-lit photo of the whole page' };
  if (!r.portrait) return { code: 'no_face_on_document', text: 'No face was found on the ID document' };
  if (r.selfie.verdict.failure) return { code: r.selfie.verdict.failure, text: `Selfie: ${failureText(r.selfie.verdict.failure, r.selfie.verdict)}` };
  if (!r.match.face_match) return { code: 'face_mismatch', text: 'The selfie does not match the face on the ID document' };
  return documentFailure(r.reading, a, reviewFields)
    ?? (claims.some((c) => c.result === 'mismatch') ? { code: 'claim_mismatch', text: 'The name or date of birth given does not match the ID document' } : null);
}

/**
 * Why a document whose zone was read does not verify, by its own checks (identityFailure's
 * document part, after the faces): expired, unreadable, inconsistent, or a field left to review.
 */
export function documentFailure(
  reading: DocumentReading | null | undefined, a: Assessment, reviewFields: readonly ReviewFlag['field'][] = REVIEW_FIELDS,
): { code: string; text: string } | null {
  const [failed] = refusingChecks(a);
  if (failed?.check === 'not_expired') return { code: 'document_expired', text: 'The ID document has expired' };
  const unread = unreadZone(reading, a);
  if (unread) {
    return {
      code: 'document_unreadable',
      text: `The ID document's machine-readable zone could not be read ${unread === 'in_time' ? 'in time' : 'clearly'}: send a sharp, well-lit photo of the whole page`,
    };
  }
  if (failed) return { code: 'document_inconsistent', text: `The ID document did not pass its checks: ${failed.detail}` };
  // A check digit left to review doubts the zone itself: it stops every product, whatever fields it reads.
  const digits = a.review.filter((f) => f.reason === 'check_digit_fails');
  if (digits.length) {
    const fields = [...new Set(digits.map((f) => f.field.replaceAll('_', ' ')))].join(' and ');
    return { code: 'document_needs_review', text: `The check digit of the ${fields} in the ID document's MRZ does not hold and the printed page does not confirm the MRZ's reading (a character read wrong and one written wrong look alike): an analyst should compare them on the image` };
  }
  const review = a.review.filter((f) => reviewFields.includes(f.field));
  if (review.length) {
    const fields = [...new Set(review.map((f) => f.field.replaceAll('_', ' ')))].join(' and ');
    return { code: 'document_needs_review', text: `The ${fields} on the ID document could not be settled from its MRZ and printed page: an analyst should compare them on the image` };
  }
  return null;
}

/**
 * Confidence (0-100) in the decision taken (docs/decisions.md): verified, the mean of the
 * confidence in the face match and the document's authenticity confidence; not verified because
 * the faces differ, the confidence that they are different people; not verified by any other rule
 * missed (unreadable, no portrait, a selfie rule, expired, a failed document check, a claim that
 * differs), 100: the rule was measured as missed, and the checks say by how much.
 */
export function identityConfidence(r: Pick<IdentityCheck, 'match' | 'assessment'>, failure: { code: string } | null): number {
  if (!failure) return Math.round(((r.match.decision_confidence + r.assessment.authenticity.confidence) / 2) * 10) / 10;
  return failure.code === 'face_mismatch' ? r.match.decision_confidence : 100;
}

/** The parts of the identity answer every document product shares (identity, KYC-plus). */
export function identityAnswer(r: IdentityCheck, claims: ClaimComparison[], reviewFields?: readonly ReviewFlag['field'][]) {
  const failure = identityFailure(r, claims, reviewFields);
  const a = r.assessment;
  const confidence = identityConfidence(r, failure);
  const body: Omit<IdentityResult, 'verification_id' | 'timestamp' | 'credits_consumed' | 'credits_remaining'> = {
    success: true,
    verified: failure === null,
    confidence,
    face_match: { similarity: r.match.face_match_confidence, is_match: r.match.face_match, threshold: r.match.threshold },
    document_data: a.documentData,
    authenticity: a.authenticity,
    ...(failure ? { error: failure.text, failure_reason: failure.code } : {}),
    ...(claims.length ? { claims } : {}),
    mrz: a.mrz && r.reading
      ? {
          format: a.mrz.format,
          lines: a.mrz.lines,
          check_digits: a.mrz.checkDigits,
          printed: (['surname', 'given_names', 'date_of_birth', 'document_number'] as const).map((field) => ({
            field,
            agreement: r.reading!.printed[field] === undefined ? ('not_located' as const) : agreementOf(a, field),
          })),
          read_ms: r.reading.ms,
        }
      : null,
    review: a.review,
    selfie_analysis: analysisBlock(r.selfie),
  };
  return { body, failure, confidence };
}

type Agreement = NonNullable<IdentityResult['mrz']>['printed'][number]['agreement'];

function agreementOf(a: Assessment, field: 'surname' | 'given_names' | 'date_of_birth' | 'document_number'): Agreement {
  if (a.review.some((f) => f.field === field && f.reason === 'printed_differs')) return 'review';
  if (field === 'surname' || field === 'given_names') {
    const settled = a.names?.[field === 'surname' ? 'surname' : 'givenNames'].settlement ?? 'not_located';
    return settled === 'restored' ? 'match' : settled;
  }
  const check = field === 'date_of_birth' ? 'printed_date_of_birth_matches_mrz' : 'printed_document_number_matches_mrz';
  const r = a.authenticity.checks.find((c) => c.check === check)?.result;
  return r === 'pass' ? 'match' : r === 'fail' ? 'mismatch' : 'not_located';
}
