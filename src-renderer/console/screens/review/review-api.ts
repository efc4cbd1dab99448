// The review's calls: record a disposition (ids, codes and whether a note exists; never the
// note or the subject), approve a waiting clearance with a second person's credentials at this
// desk, and read what became of the batch's clearances (approved, or sent back with a note).
import {
  ApproveResponse, ClearanceOutcomes, DispositionResponse, type ApproveRequest, type DispositionRequest,
} from '../../../../src-shared/contracts/review';
import { queryString, request } from '../../api/client';

export const reviewApi = {
  decide: (body: DispositionRequest) => request('POST', '/api/review/dispositions', DispositionResponse, { body }),
  approve: (clearanceId: string, body: ApproveRequest) =>
    request('POST', `/api/review/clearances/${encodeURIComponent(clearanceId)}/approve`, ApproveResponse, { body }),
  outcomes: (batchId: string, signal?: AbortSignal) =>
    request('GET', `/api/review/clearances?${queryString({ batch_id: batchId })}`, ClearanceOutcomes, signal ? { signal } : {}),
};
