// The Verifications screen's calls, checked against the shared contracts.
import { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import {
  ComplianceResult, IdentityResult, ReportResult, type ComplianceRequest, type IdentityRequest, type ReportRequest,
} from '../../../../src-shared/contracts/documents';
import { LivenessResult } from '../../../../src-shared/contracts/faces';
import { VerificationPage, type VerificationQuery } from '../../../../src-shared/contracts/verifications';
import { queryString, request, uploadForm } from '../../api/client';

const formOf = (file: Blob) => {
  const f = new FormData();
  f.append('file', file, 'image');
  return f;
};

/** A selfie and an ID document (front; the back when a card's MRZ is there), as the analyst chose them. */
export interface DocumentImages {
  selfie: Blob;
  front: Blob;
  back: Blob | null;
}

/** A file's bytes as base64 (no data: prefix), for the JSON document routes. Held only for the request. */
function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('The image could not be read from disk.'));
    reader.readAsDataURL(blob);
  });
}

async function documentBody(images: DocumentImages): Promise<IdentityRequest & ComplianceRequest> {
  const [selfie, front, back] = await Promise.all([base64Of(images.selfie), base64Of(images.front), images.back ? base64Of(images.back) : null]);
  return { selfie_b64: selfie, id_front_b64: front, ...(back ? { id_back_b64: back } : {}) };
}

/** The bytes of a base64 answer (the report PDF). */
export function bytesOfBase64(b64: string): Uint8Array {
  const text = atob(b64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export const verificationsApi = {
  page: (q: VerificationQuery, signal?: AbortSignal) => request('GET', `/api/verifications?${queryString(q)}`, VerificationPage, { signal }),
  tryLiveness: (file: Blob, signal?: AbortSignal) => uploadForm('/api/console/try/liveness', formOf(file), LivenessResult, { signal }),
  tryAge: (file: Blob, minAge: number, signal?: AbortSignal) =>
    uploadForm(`/api/console/try/age?min_age=${minAge}`, formOf(file), AgeSelfieResponse, { signal }),
  tryIdentity: async (images: DocumentImages, signal?: AbortSignal) =>
    request('POST', '/api/console/try/identity', IdentityResult, { body: await documentBody(images), signal }),
  tryKyc: async (images: DocumentImages, signal?: AbortSignal) =>
    request('POST', '/api/console/try/kyc', ComplianceResult, { body: await documentBody(images), signal }),
  tryReport: (body: ReportRequest) => request('POST', '/api/console/try/report', ReportResult, { body }),
};
