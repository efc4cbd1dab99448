// Liveness (spec: POST /api/verify): is there one real, live human face in this image or clip?
// The picture lives only in this call: decoded here, analysed in a face worker, and dropped; the
// ledger row holds the id, outcome, confidence, failure code and timing.
import type { CHALLENGES, LivenessResult } from '../../../../src-shared/contracts/faces';
import { AppError } from '../../../../src-shared/errors';
import type { Organization } from '../accounts/organization';
import type { Clock } from '../clock';
import type { FacePool } from '../faces/pool';
import { analysisBlock, demoAnalysis, DEMO_CONFIDENCE, failureText, evidenceOf, judgeTaken, livenessDecision, takeSelfie } from '../faces/selfie';
import { nowIso } from '../ids';
import { isVideo, sniff } from '../media/image';
import type { PaidOnce } from '../verification/billing';
import type { VerificationTokens } from '../verification/tokens';
import { bill, uploadDigest, type Answer, type Call, type ChargeDeps } from './call';

/** What a liveness check uses: the face workers, the organisation's liveness setting, the token signer, and billing. */
export interface LivenessDeps extends ChargeDeps {
  clock: Clock;
  faces: FacePool;
  organization: Organization;
  tokens: VerificationTokens;
}

export type Challenge = (typeof CHALLENGES)[number];

/**
 * The organisation's liveness setting, for a selfie sent by one of its API keys (issue 37): when it
 * requires the head-turn clip, a still photo is refused before anything is charged (demo keys too:
 * it is intake). True when the clip is required (the caller then holds it to the challenge).
 */
export async function clipRequired(s: Pick<LivenessDeps, 'organization'>, call: Call, field: string, bytes: Uint8Array): Promise<boolean> {
  if (call.payer.id === null || !(await s.organization.requiresLivenessClip(call.payer.orgId))) return false;
  if (!isVideo(sniff(bytes))) {
    throw new AppError('invalid_parameters', {
      message: `${field} must be a video clip of the head turn: this organisation requires it of its API keys (a still photo is weaker evidence of a live person)`,
      fields: [{ field, issue: 'video_required' }],
    });
  }
  return true;
}

/**
 * One liveness check, for an API key, the console's try panel or a hosted session: intake (a bad
 * file is refused before any model or charge, for demo keys too: only the models are simulated),
 * the face workers, the rules, one ledger row, a token on PASS.
 */
export async function liveness(
  s: LivenessDeps, call: Call, bytes: Uint8Array, opts: { challenge?: Challenge | null; paidOnce?: PaidOnce } = {},
): Promise<Answer<LivenessResult>> {
  const key = call.payer;
  // Where the organisation requires the clip, every clip is the head-turn challenge.
  const challenge = opts.challenge ?? ((await clipRequired(s, call, 'file', bytes)) ? 'head_turn' : null);
  const taken = await takeSelfie('file', bytes);
  // A challenge is a movement over time: a single picture cannot meet it.
  if (challenge && taken.kind !== 'clip') throw new AppError('invalid_parameters', { message: 'challenge needs a video clip in file', fields: [{ field: 'file', issue: 'video_required' }] });

  const evidence = evidenceOf(taken, challenge !== null);
  const billed = await bill<LivenessResult>(s, call, {
    operation: 'human', idPrefix: 'ver', bodyText: uploadDigest(bytes), ...(opts.paidOnce ? { paidOnce: opts.paidOnce } : {}),
  }, async (ctx) => {
    const timestamp = nowIso(s.clock.now());
    if (key.demo) {
      const token = await s.tokens.sign({ verificationId: ctx.verificationId, orgId: key.orgId, env: key.env, product: 'human', status: 'PASS', confidence: DEMO_CONFIDENCE });
      return {
        status: 'PASS', confidence: DEMO_CONFIDENCE, billable: false, httpStatus: 200,
        result: {
          verification_id: ctx.verificationId, status: 'PASS', confidence: DEMO_CONFIDENCE, is_real_face: true, face_detected: true,
          token, timestamp, analysis: demoAnalysis(evidence), simulated: true,
        },
        livenessEvidence: evidence,
      };
    }
    // Liveness needs no age or embedding: the description model (two thirds of the time) is skipped.
    const judged = await judgeTaken(s.faces, taken, { describe: false, challenge: challenge !== null });
    const d = livenessDecision(judged.verdict);
    const analysis = analysisBlock(judged);
    const result: LivenessResult = {
      verification_id: ctx.verificationId, status: d.status, confidence: d.confidence, face_detected: d.faceDetected, timestamp, analysis,
    };
    if (d.status === 'PASS') {
      result.is_real_face = d.isRealFace;
      result.token = await s.tokens.sign({
        verificationId: ctx.verificationId, orgId: key.orgId, env: key.env, product: 'human', status: 'PASS', confidence: d.confidence,
      });
    } else if (d.failure) {
      result.error = d.error ?? failureText(d.failure);
      result.failure_reason = d.failure;
    }
    return { status: d.status, confidence: d.confidence, errorCode: d.failure, billable: true, httpStatus: 200, result, livenessEvidence: judged.evidence };
  });
  return { body: billed.outcome.result, replayed: billed.replayed };
}
