// The Verifications screen's calls, checked against the shared contracts.
import { AgeSelfieResponse } from '../../../../src-shared/contracts/age';
import { LivenessResult } from '../../../../src-shared/contracts/faces';
import { VerificationPage, type VerificationQuery } from '../../../../src-shared/contracts/verifications';
import { queryString, request, uploadForm } from '../../api/client';

const formOf = (file: Blob) => {
  const f = new FormData();
  f.append('file', file, 'image');
  return f;
};

export const verificationsApi = {
  page: (q: VerificationQuery, signal?: AbortSignal) => request('GET', `/api/verifications?${queryString(q)}`, VerificationPage, { signal }),
  tryLiveness: (file: Blob, signal?: AbortSignal) => uploadForm('/api/console/try/liveness', formOf(file), LivenessResult, { signal }),
  tryAge: (file: Blob, minAge: number, signal?: AbortSignal) =>
    uploadForm(`/api/console/try/age?min_age=${minAge}`, formOf(file), AgeSelfieResponse, { signal }),
};
