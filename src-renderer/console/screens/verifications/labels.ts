// Words for the face rules and outcomes, as an analyst reads them.
import type { Billable } from '../../../../src-shared/catalog';
import type { PolicyCheck, PolicyName } from '../../../../src-shared/contracts/faces';

export const PRODUCT_LABEL: Record<Billable, string> = {
  human: 'Liveness', age: 'Age', identity: 'Identity', compliance: 'KYC plus', screen: 'Screening', rescreen: 'Rescreen',
};

export const POLICY_LABEL: Record<PolicyName, { name: string; rule: string }> = {
  one_face: { name: 'One person', rule: 'exactly one face' },
  detection_score: { name: 'Clear face', rule: 'detector score at least' },
  face_size: { name: 'Face size', rule: 'face width in pixels at least' },
  frontal_pose: { name: 'Facing the camera', rule: 'turned at most (degrees)' },
  presentation_attack: { name: 'Not a print or screen', rule: 'advisory realness at least' },
};

export const REASON_LABEL: Record<string, string> = {
  no_face_detected: 'No face found',
  multiple_faces: 'Several faces',
  low_detection_score: 'Face not clear',
  face_too_small: 'Face too small',
  face_not_frontal: 'Not facing the camera',
  spoof_suspected: 'Looks like a print or screen',
  estimated_age_below_threshold: 'Estimate not conclusive',
  compliance_provider_unavailable: 'Lists not loaded',
};

/** A measured value in its rule's unit. */
export function checkValue(c: PolicyCheck): string {
  switch (c.policy) {
    case 'one_face':
    case 'face_size':
      return String(Math.round(c.value));
    case 'frontal_pose':
      return `${c.value.toFixed(1)}°`;
    default:
      return c.value.toFixed(2);
  }
}

export const statusTone = (status: string) =>
  status === 'PASS' || status === 'success' || status === 'completed' ? 'positive' : status === 'FAIL' || status === 'failed' ? 'negative' : 'warning';
