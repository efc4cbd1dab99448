// Liveness (spec: POST /api/verify): is there one real, live human face in this image or clip?
// The picture lives only in this call: decoded here, analysed in a face worker, and dropped; the
// ledger row holds the id, outcome, confidence, failure code and timing.
import type { CHALLENGES, LivenessResult } from '../../../../src-shared/contracts/faces';
import { AppError } from '../../../../src-shared/errors';
import type { Services } from '../../compose';
import { analysisBlock, demoAnalysis, DEMO_CONFIDENCE, failureText, judge, livenessDecision } from '../faces/selfie';
import { nowIso } from '../ids';
import { checkImageBytes, decodeImage, imageError, isVideo, SELFIE_MAX_SIDE } from '../media/image';
import { analyseVideo, VIDEO_SUPPORTED, type VideoJudgement } from '../media/video';
import type { PaidOnce } from '../verification/billing';
import { bill, uploadDigest, type Answer, type Call } from './call';

export type Challenge = (typeof CHALLENGES)[number];

/**
 * One liveness check, for an API key, the console's try panel or a hosted session: intake (a bad
 * file is refused before any model or charge, for demo keys too: only the models are simulated),
 * the face workers, the rules, one ledger row, a token on PASS.
 */
export async function liveness(
  s: Services, call: Call, bytes: Uint8Array, opts: { challenge?: Challenge | null; paidOnce?: PaidOnce } = {},
): Promise<Answer<LivenessResult>> {
  const key = call.payer;
  const format = checkImageBytes('file', bytes, { allowVideo: true });
  if (isVideo(format) && !VIDEO_SUPPORTED) throw imageError('file', 'unsupported_type');
  const challenge = opts.challenge ?? null;
  // A challenge is a movement over time: a single picture cannot meet it.
  if (challenge && !isVideo(format)) throw new AppError('invalid_parameters', { message: 'challenge needs a video clip in file', fields: [{ field: 'file', issue: 'video_required' }] });
  const image = isVideo(format) ? null : await decodeImage('file', bytes, { maxSide: SELFIE_MAX_SIDE });

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
          token, timestamp, analysis: demoAnalysis(), simulated: true,
        },
      };
    }
    // Liveness needs no age or embedding: the description model (two thirds of the time) is skipped.
    const judged = image ? await judge(s.faces, image, false) : await analyseVideo(s.faces, bytes, { challenge: challenge !== null });
    const d = livenessDecision(judged.verdict);
    const analysis = analysisBlock(judged);
    if ('frames' in judged) {
      const clip = judged as VideoJudgement;
      analysis.frames = clip.frames;
      if (challenge && clip.challenge) analysis.challenge = { asked: challenge, passed: clip.challenge.passed, failed: clip.challenge.failed, checks: clip.challenge.checks };
    }
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
    return { status: d.status, confidence: d.confidence, errorCode: d.failure, billable: true, httpStatus: 200, result };
  });
  return { body: billed.outcome.result, replayed: billed.replayed };
}
