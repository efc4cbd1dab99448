// The review's calls: record a disposition (ids, codes and whether a note exists; never the
// note or the subject), and approve a waiting clearance with a second person's credentials.
import {
  ApproveResponse, DispositionResponse, type ApproveRequest, type DispositionRequest,
} from '../../../../src-shared/contracts/review';
import { request } from '../../api/client';

export const reviewApi = {
  decide: (body: DispositionRequest) => request('POST', '/api/review/dispositions', DispositionResponse, { body }),
  approve: (clearanceId: string, body: ApproveRequest) =>
    request('POST', `/api/review/clearances/${encodeURIComponent(clearanceId)}/approve`, ApproveResponse, { body }),
};
