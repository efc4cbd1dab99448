// Dispositions of batch rows and clearances of strong sanctions matches. The rows and results
// live in the analyst's console; the service checks a row's review token, records each decision
// as an audit row, and keeps pending clearances (ids only) until a second person approves them.
import { AppError } from '../../../../src-shared/errors';
import {
  hasStrongSanctionsMatch, reasonContradiction, CONTRADICTION_TEXT, type Clearance, type Contradiction, type DispositionRequest, type DispositionResponse, type OrgSettings,
} from '../../../../src-shared/contracts/review';
import type { z } from 'zod';
import type { Db } from '../../db/open';
import type { Accounts, SessionContext } from '../accounts/accounts';
import type { OrgRow } from '../accounts/repo';
import { actorOf, type Audit } from '../audit/audit';
import type { Clock } from '../clock';
import { newId, nowIso } from '../ids';
import type { InstallSecret } from '../install-secret';
import { reviewTokenValid } from './token';
import { may } from '../../../../src-shared/policy';

type Decision = z.output<typeof DispositionRequest>;

interface ClearanceRow {
  id: string;
  org_id: number;
  batch_id: string;
  row_number: number;
  screening_id: string;
  entity_ids: string;
  record_hashes: string;
  reason_code: Clearance['reason_code'];
  has_note: number;
  client_ref_hmac: string | null;
  state: Clearance['state'];
  requested_by: number;
  requested_at: string;
  decided_by: number | null;
  decided_at: string | null;
  override_contradiction: Contradiction | null;
}

const REVIEW_KEY = 'review-token/v1';

export function createReview(db: Db, clock: Clock, deps: { accounts: Accounts; audit: Audit; secret: InstallSecret }) {
  const { accounts, audit } = deps;
  const s = {
    insert: db.prepare(
      `INSERT INTO clearances (id, org_id, batch_id, row_number, screening_id, entity_ids, record_hashes, reason_code, has_note, client_ref_hmac, state, requested_by, requested_at, override_contradiction)
       VALUES (@id, @org_id, @batch_id, @row_number, @screening_id, @entity_ids, @record_hashes, @reason_code, @has_note, @client_ref_hmac, 'pending', @requested_by, @requested_at, @override_contradiction)`,
    ),
    byId: db.prepare<[string], ClearanceRow>('SELECT * FROM clearances WHERE id = ?'),
    pendingFor: db.prepare<[number, string, number], ClearanceRow>(
      "SELECT * FROM clearances WHERE org_id = ? AND batch_id = ? AND row_number = ? AND state = 'pending'",
    ),
    pendingCount: db.prepare<[number], { n: number }>("SELECT count(*) AS n FROM clearances WHERE org_id = ? AND state = 'pending'"),
    setState: db.prepare<[Clearance['state'], number | null, string | null, string]>(
      'UPDATE clearances SET state = ?, decided_by = ?, decided_at = ? WHERE id = ?',
    ),
  };

  function view(c: ClearanceRow): Clearance {
    const email = (id: number | null) => (id === null ? null : accounts.repo.userById(id)?.email ?? `user ${id}`);
    return {
      id: c.id, state: c.state, batch_id: c.batch_id, row: c.row_number, reason_code: c.reason_code,
      requested_by: email(c.requested_by) ?? '', requested_at: c.requested_at,
      approved_by: c.state === 'approved' ? email(c.decided_by) : null,
      approved_at: c.state === 'approved' ? c.decided_at : null,
      override: c.override_contradiction,
    };
  }

  return {
    /** Hex, for the batch worker that signs result rows. */
    reviewKey: (): string => deps.secret.derive(REVIEW_KEY).toString('hex'),

    settings: (org: OrgRow): OrgSettings => ({ four_eyes: org.four_eyes === 1 }),

    /** Clearances waiting for a second person's approval. */
    pendingCount: (orgId: number): number => s.pendingCount.get(orgId)?.n ?? 0,

    setFourEyes(session: SessionContext, on: boolean): OrgSettings {
      return audit.atomically(() => {
        const org = accounts.repo.orgById(session.org.id)!;
        const before = org.four_eyes === 1;
        if (before !== on) {
          accounts.repo.setFourEyes(org.id, on);
          audit.record({
            orgId: org.id, actor: actorOf(session.user), action: 'settings.changed', setting: 'four_eyes',
            from: before ? 'on' : 'off', to: on ? 'on' : 'off',
          });
        }
        return { four_eyes: on };
      });
    },

    /**
     * Records one disposition of one batch row. Clearing a row with a strong sanctions match needs
     * a reason; with four-eyes on it waits as a pending clearance. A new decision on the row
     * withdraws a clearance still waiting.
     */
    decide(session: SessionContext, d: Decision): DispositionResponse {
      const basis = { batch_id: d.batch_id, row: d.row, screening_id: d.screening_id, client_reference_id: d.client_reference_id, matches: d.matches };
      if (!reviewTokenValid(deps.secret.derive(REVIEW_KEY), basis, d.review_token)) {
        throw new AppError('account_validation', { field: 'review_token', message: 'The review token does not match this batch row and its matches' });
      }
      const strong = d.disposition === 'cleared_false_positive' && hasStrongSanctionsMatch(d.matches);
      if (strong && d.reason_code === null) {
        throw new AppError('account_validation', { field: 'reason_code', message: 'Clearing a strong sanctions match needs a reason code' });
      }
      // The reason is checked against the signed evidence; a contradiction needs an override note
      // and then always waits for a second person, whatever the four-eyes setting.
      const contradiction = d.disposition === 'cleared_false_positive' ? reasonContradiction(d.reason_code, d.matches) : null;
      if (contradiction && !d.override_note) {
        throw new AppError('reason_contradicts_evidence', { field: 'reason_code', message: `${CONTRADICTION_TEXT[contradiction]}: write an override note (a second person must then approve) or choose another reason` });
      }
      const override = contradiction ? { overrideContradiction: contradiction } : {};
      const actor = actorOf(session.user);
      const entities = d.matches.map((m) => ({ entity_id: m.entity_id, record_hash: m.record_hash }));
      const refHmac = d.client_reference_id ? audit.clientRefHmac(d.client_reference_id) : undefined;
      const common = {
        orgId: session.org.id, actor, batchId: d.batch_id, rowNumber: d.row, screeningId: d.screening_id, entities,
        ...(refHmac ? { clientRefHmac: refHmac } : {}),
      };
      return audit.atomically((): DispositionResponse => {
        const org = accounts.repo.orgById(session.org.id)!;
        for (const waiting of s.pendingFor.all(org.id, d.batch_id, d.row)) {
          s.setState.run('withdrawn', session.user.id, nowIso(clock.now()), waiting.id);
          audit.record({ ...common, action: 'clearance.withdrawn', clearanceId: waiting.id, reasonCode: waiting.reason_code });
        }
        const base = { disposition: d.disposition, reason_code: d.disposition === 'cleared_false_positive' ? d.reason_code : null, decided_by: session.user.email };
        if (d.disposition === null) {
          const row = audit.record({ ...common, action: 'disposition.removed' });
          return { ...base, status: 'removed', decided_at: String(row.at), clearance: null };
        }
        const clearing = d.disposition === 'cleared_false_positive';
        const reason = clearing ? { reasonCode: d.reason_code, hasNote: d.has_note } : {};
        if (contradiction || (strong && org.four_eyes === 1)) {
          const at = nowIso(clock.now());
          const id = newId('clr', 16);
          s.insert.run({
            id, org_id: org.id, batch_id: d.batch_id, row_number: d.row, screening_id: d.screening_id,
            entity_ids: JSON.stringify(entities.map((e) => e.entity_id)), record_hashes: JSON.stringify(entities.map((e) => e.record_hash)),
            reason_code: d.reason_code, has_note: d.has_note ? 1 : 0, client_ref_hmac: refHmac ?? null, requested_by: session.user.id, requested_at: at,
            override_contradiction: contradiction,
          });
          audit.record({ ...common, ...reason, ...override, action: 'clearance.requested', disposition: d.disposition, clearanceId: id });
          return { ...base, status: 'pending_approval', decided_at: at, clearance: view(s.byId.get(id)!) };
        }
        const row = audit.record({ ...common, ...reason, action: 'disposition.set', disposition: d.disposition });
        return { ...base, status: 'recorded', decided_at: String(row.at), clearance: null };
      });
    },

    /** A second person approves a pending clearance with their own credentials, at the analyst's desk. */
    async approve(session: SessionContext, clearanceId: string, email: string, password: string): Promise<Clearance> {
      const found = s.byId.get(clearanceId);
      if (!found || found.org_id !== session.org.id) throw new AppError('clearance_not_found');
      if (found.state !== 'pending') throw new AppError('conflict', { message: `This clearance is ${found.state === 'approved' ? 'already approved' : 'withdrawn'}` });
      const approver = await accounts.verifyCredentials(email, password);
      if (!approver || approver.org_id !== session.org.id) throw new AppError('invalid_approver', { field: 'password' });
      if (!may(approver.role, 'review.approve')) {
        throw new AppError('approver_not_allowed', { field: 'email', message: found.override_contradiction ? 'Only an owner or admin can approve an overridden clearing reason' : 'Only an owner or admin can approve clearing a strong sanctions match' });
      }
      if (approver.id === found.requested_by) {
        throw new AppError('approver_not_allowed', { field: 'email', message: 'The analyst who cleared the match cannot approve it: a second person must' });
      }
      return audit.atomically(() => {
        // Checked again under the write lock: a withdrawal may have landed during the password check.
        const c = s.byId.get(clearanceId)!;
        if (c.state !== 'pending') throw new AppError('conflict', { message: 'This clearance was withdrawn' });
        const at = nowIso(clock.now());
        s.setState.run('approved', approver.id, at, c.id);
        const ids = JSON.parse(c.entity_ids) as string[];
        const hashes = JSON.parse(c.record_hashes) as string[];
        audit.record({
          orgId: c.org_id, actor: actorOf(approver), action: 'clearance.approved', batchId: c.batch_id, rowNumber: c.row_number,
          screeningId: c.screening_id, disposition: 'cleared_false_positive', reasonCode: c.reason_code, hasNote: c.has_note === 1,
          clearanceId: c.id, approverUserId: approver.id, ...(c.client_ref_hmac ? { clientRefHmac: c.client_ref_hmac } : {}),
          ...(c.override_contradiction ? { overrideContradiction: c.override_contradiction } : {}),
          entities: ids.map((entity_id, i) => ({ entity_id, record_hash: hashes[i] ?? '' })),
        });
        return view(s.byId.get(c.id)!);
      });
    },
  };
}
export type Review = ReturnType<typeof createReview>;
