// Dispositions of batch rows and clearances of strong sanctions matches. The rows and results
// live in the analyst's console; the service checks a row's review token, records each decision
// as an audit row, and keeps pending clearances (ids, codes and flags only) until a second person
// approves them or sends them back: in the approval queue, in their own session, or (the earlier
// way) with their credentials at the analyst's desk. A send-back note, and what the analyst saw of
// a row they cleared (shown to the approver), are held in memory only (batch-memory.ts).
import { AppError } from '../../../../src-shared/errors';
import {
  hasStrongSanctionsMatch, reasonContradiction, CONTRADICTION_TEXT, type ApprovalItem, type ApprovalMatch, type ApprovalQueue, type Clearance, type ClearanceOutcome,
  type DispositionRequest, type DispositionResponse, type MatchEvidence, type OrgSettings, type ReviewMatch, type SeenByAnalyst,
} from '../../../../src-shared/contracts/review';
import { LIST_KINDS, type ListKind } from '../../../../src-shared/contracts/screening';
import type { z } from 'zod';
import type { Engine, Q } from '../../db/engine';
import { SESSION_IDLE_MS, type Accounts, type SessionContext } from '../accounts/accounts';
import type { OrgRow, UserRow } from '../accounts/repo';
import { actorOf, type Audit } from '../audit/audit';
import type { Clock } from '../clock';
import { newId, nowIso } from '../ids';
import type { InstallSecret } from '../install-secret';
import { clearanceRepo, type ClearanceRow } from './repo';
import { reviewTokenValid } from './token';
import { createBatchMemory } from './batch-memory';
import { may } from '../../../../src-shared/policy';

type Decision = z.output<typeof DispositionRequest>;

type MatchFlags = [ListKind, number, MatchEvidence['dob'], MatchEvidence['country'], boolean];

const flagsOf = (matches: readonly ReviewMatch[]): string =>
  JSON.stringify(matches.map((m): MatchFlags => [m.list, m.score, m.evidence.dob, m.evidence.country, m.evidence.exact_name]));

/** The matches a clearance clears, as the queue shows them (flags of clearances made before 0021 are unknown). */
function matchesOf(c: ClearanceRow): ApprovalMatch[] {
  const ids = JSON.parse(c.entity_ids) as string[];
  let flags: MatchFlags[] = [];
  try {
    flags = c.match_flags ? (JSON.parse(c.match_flags) as MatchFlags[]) : [];
  } catch {
    flags = [];
  }
  return ids.map((entity_id, i) => {
    const f = flags[i];
    if (!f || !(LIST_KINDS as readonly string[]).includes(f[0])) return { entity_id, list: null, score: null, evidence: null };
    return { entity_id, list: f[0], score: f[1], evidence: { dob: f[2], country: f[3], exact_name: f[4] } };
  });
}

const REVIEW_KEY = 'review-token/v1';

const STATE_TEXT: Record<Clearance['state'], string> = {
  pending: 'waiting for approval', approved: 'already approved', withdrawn: 'withdrawn', sent_back: 'already sent back',
};

/** The audit fields every act on a clearance repeats: ids, codes and flags, never the subject or a note. */
function clearanceAudit(c: ClearanceRow) {
  const ids = JSON.parse(c.entity_ids) as string[];
  const hashes = JSON.parse(c.record_hashes) as string[];
  return {
    orgId: c.org_id, batchId: c.batch_id, rowNumber: c.row_number, screeningId: c.screening_id, reasonCode: c.reason_code, hasNote: c.has_note === 1,
    clearanceId: c.id, ...(c.client_ref_hmac ? { clientRefHmac: c.client_ref_hmac } : {}),
    ...(c.override_contradiction ? { overrideContradiction: c.override_contradiction } : {}),
    entities: ids.map((entity_id, i) => ({ entity_id, record_hash: hashes[i] ?? '' })),
  };
}

export function createReview(engine: Engine, clock: Clock, deps: { accounts: Accounts; audit: Audit; secret: InstallSecret }) {
  const { accounts, audit } = deps;
  const people = accounts.repo;
  const s = clearanceRepo;
  const { q } = engine;

  /** The clearance as the API shows it, its people by e-mail (read on `q`: the engine's, or the act's transaction). */
  async function view(q: Q, c: ClearanceRow): Promise<Clearance> {
    const emails = new Map<number, string>();
    for (const id of new Set([c.requested_by, c.decided_by])) {
      if (id !== null) emails.set(id, (await people.userById(q, id))?.email ?? `user ${id}`);
    }
    const email = (id: number | null) => (id === null ? null : emails.get(id)!);
    return {
      id: c.id, state: c.state, batch_id: c.batch_id, row: c.row_number, reason_code: c.reason_code,
      requested_by: email(c.requested_by) ?? '', requested_at: c.requested_at,
      approved_by: c.state === 'approved' ? email(c.decided_by) : null,
      approved_at: c.state === 'approved' ? c.decided_at : null,
      override: c.override_contradiction,
      sent_back_by: c.state === 'sent_back' ? email(c.decided_by) : null,
      sent_back_at: c.state === 'sent_back' ? c.decided_at : null,
    };
  }

  const notes = createBatchMemory<string>(clock, SESSION_IDLE_MS);
  /** What the analyst saw of each waiting clearance, for the approver (never stored). */
  const seen = createBatchMemory<SeenByAnalyst>(clock, SESSION_IDLE_MS);

  /** The listed people of the matches the clearing covers (signed by the review token), nothing else. */
  const seenOf = (d: Decision): SeenByAnalyst | null => {
    if (!d.seen) return null;
    const covered = new Set(d.matches.map((m) => m.entity_id));
    return { ...d.seen, listed: d.seen.listed.filter((l) => covered.has(l.entity_id)) };
  };

  /** A clearance of the viewer's organisation (another's answers as unknown), still waiting. */
  async function pendingInOrg(orgId: number, clearanceId: string): Promise<ClearanceRow> {
    const found = await s.byId(q, clearanceId);
    if (!found || found.org_id !== orgId) throw new AppError('clearance_not_found');
    if (found.state !== 'pending') throw new AppError('conflict', { message: `This clearance is ${STATE_TEXT[found.state]}` });
    return found;
  }

  /** An owner or admin other than the analyst who asked. */
  function mayDecide(approver: Pick<UserRow, 'id' | 'role'>, c: ClearanceRow): void {
    if (!may(approver.role, 'review.approve')) {
      throw new AppError('approver_not_allowed', { field: 'email', message: c.override_contradiction ? 'Only an owner or admin can approve an overridden clearing reason' : 'Only an owner or admin can approve clearing a strong sanctions match' });
    }
    if (approver.id === c.requested_by) {
      throw new AppError('approver_not_allowed', { field: 'email', message: 'The analyst who cleared the match cannot approve it: a second person must' });
    }
  }

  /** The conflict of a clearance decided meanwhile (withdrawn, approved or sent back by someone else). */
  const decidedMeanwhile = async (tx: Q, id: string) =>
    new AppError('conflict', { message: `This clearance is ${STATE_TEXT[(await s.byId(tx, id))!.state]}` });

  /** Approves only while it still waits (a withdrawal or another approver, on any instance, may have landed meanwhile). */
  function approveNow(approver: Pick<UserRow, 'id' | 'role'>, clearanceId: string): Promise<Clearance> {
    return audit.atomically(async (tx) => {
      const at = nowIso(clock.now());
      if (!(await s.decide(tx, clearanceId, 'approved', approver.id, at))) throw await decidedMeanwhile(tx, clearanceId);
      const c = (await s.byId(tx, clearanceId))!;
      await audit.record({
        ...clearanceAudit(c), actor: actorOf(approver), action: 'clearance.approved', disposition: 'cleared_false_positive', approverUserId: approver.id,
      }, tx);
      seen.drop(c.id);
      return view(tx, c);
    });
  }

  return {
    /** Hex, for the batch worker that signs result rows. */
    reviewKey: (): string => deps.secret.derive(REVIEW_KEY).toString('hex'),

    settings: (org: OrgRow): OrgSettings => ({ four_eyes: org.four_eyes === 1 }),

    /** Clearances waiting for a second person's approval. */
    pendingCount: (orgId: number): Promise<number> => s.pendingCount(q, orgId),

    setFourEyes(session: SessionContext, on: boolean): Promise<OrgSettings> {
      return audit.atomically(async (tx) => {
        const org = (await people.orgById(tx, session.org.id))!;
        const before = org.four_eyes === 1;
        if (before !== on) {
          await people.setFourEyes(tx, org.id, on);
          await audit.record({
            orgId: org.id, actor: actorOf(session.user), action: 'settings.changed', setting: 'four_eyes',
            from: before ? 'on' : 'off', to: on ? 'on' : 'off',
          }, tx);
        }
        return { four_eyes: on };
      });
    },

    /**
     * Records one disposition of one batch row. Clearing a row with a strong sanctions match needs
     * a reason; with four-eyes on it waits as a pending clearance. A new decision on the row
     * withdraws a clearance still waiting.
     */
    async decide(session: SessionContext, d: Decision): Promise<DispositionResponse> {
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
      const answer = await audit.atomically(async (tx): Promise<DispositionResponse> => {
        const org = (await people.orgById(tx, session.org.id))!;
        for (const waiting of await s.pendingFor(tx, org.id, d.batch_id, d.row)) {
          // Decided meanwhile by an approver: it stands; this decision is recorded after it.
          if (!(await s.decide(tx, waiting.id, 'withdrawn', session.user.id, nowIso(clock.now())))) continue;
          await audit.record({ ...common, action: 'clearance.withdrawn', clearanceId: waiting.id, reasonCode: waiting.reason_code }, tx);
          seen.drop(waiting.id);
        }
        const base = { disposition: d.disposition, reason_code: d.disposition === 'cleared_false_positive' ? d.reason_code : null, decided_by: session.user.email };
        if (d.disposition === null) {
          const row = await audit.record({ ...common, action: 'disposition.removed' }, tx);
          return { ...base, status: 'removed', decided_at: String(row.at), clearance: null };
        }
        const clearing = d.disposition === 'cleared_false_positive';
        const reason = clearing ? { reasonCode: d.reason_code, hasNote: d.has_note } : {};
        if (contradiction || (strong && org.four_eyes === 1)) {
          const at = nowIso(clock.now());
          const id = newId('clr', 16);
          await s.insert(tx, {
            id, org_id: org.id, batch_id: d.batch_id, row_number: d.row, screening_id: d.screening_id,
            entity_ids: JSON.stringify(entities.map((e) => e.entity_id)), record_hashes: JSON.stringify(entities.map((e) => e.record_hash)),
            // Never null here: a strong match without a reason is refused above, and a contradiction is its reason's.
            reason_code: d.reason_code!, has_note: d.has_note ? 1 : 0, client_ref_hmac: refHmac ?? null, requested_by: session.user.id, requested_at: at,
            override_contradiction: contradiction, match_flags: flagsOf(d.matches),
          });
          await audit.record({ ...common, ...reason, ...override, action: 'clearance.requested', disposition: d.disposition, clearanceId: id }, tx);
          return { ...base, status: 'pending_approval', decided_at: at, clearance: await view(tx, (await s.byId(tx, id))!) };
        }
        const row = await audit.record({ ...common, ...reason, action: 'disposition.set', disposition: d.disposition }, tx);
        return { ...base, status: 'recorded', decided_at: String(row.at), clearance: null };
      });
      // Once committed: a clearing that waits keeps what the analyst saw for the approver; any
      // other decision's is dropped with the request.
      const shown = seenOf(d);
      if (answer.clearance && shown) seen.keep(session.org.id, session.user.id, d.batch_id, answer.clearance.id, shown);
      return answer;
    },

    /** A second person approves a pending clearance with their own credentials, at the analyst's desk. */
    async approve(session: SessionContext, clearanceId: string, email: string, password: string): Promise<Clearance> {
      const found = await pendingInOrg(session.org.id, clearanceId);
      const approver = await accounts.verifyCredentials(email, password);
      if (!approver || approver.org_id !== session.org.id) throw new AppError('invalid_approver', { field: 'password' });
      mayDecide(approver, found);
      return approveNow(approver, clearanceId);
    },

    /** The approval queue: the organisation's clearances waiting for a second person, oldest first. */
    async queue(session: SessionContext): Promise<ApprovalQueue> {
      const users = new Map<number, UserRow | undefined>();
      const waiting = await s.pendingOf(q, session.org.id);
      for (const id of new Set(waiting.map((c) => c.requested_by))) users.set(id, await people.userById(q, id));
      const person = (id: number) => {
        const u = users.get(id);
        return { user_id: id, email: u?.email ?? null, name: u?.name ?? null };
      };
      const clearances = waiting.map((c): ApprovalItem => ({
        id: c.id, batch_id: c.batch_id, row: c.row_number, screening_id: c.screening_id, requested_by: person(c.requested_by), requested_at: c.requested_at,
        reason_code: c.reason_code, override: c.override_contradiction, has_note: c.has_note === 1, matches: matchesOf(c), yours: c.requested_by === session.user.id,
        seen: seen.get(c.id),
      }));
      return { clearances, waiting: await s.pendingCount(q, session.org.id) };
    },

    /** An owner or admin approves in their own session (the route checks the role; never their own clearance). */
    async approveInSession(session: SessionContext, clearanceId: string): Promise<Clearance> {
      mayDecide(session.user, await pendingInOrg(session.org.id, clearanceId));
      return approveNow(session.user, clearanceId);
    },

    /**
     * An owner or admin sends a clearance back to the analyst: the row is undecided again. The
     * note is held in memory for the analyst's batch; the database and the audit log learn only
     * that it was sent back (and who asked, as the target).
     */
    async sendBack(session: SessionContext, clearanceId: string, note: string): Promise<{ clearance: Clearance; note_kept: boolean }> {
      const found = await pendingInOrg(session.org.id, clearanceId);
      mayDecide(session.user, found);
      const clearance = await audit.atomically(async (tx) => {
        if (!(await s.decide(tx, clearanceId, 'sent_back', session.user.id, nowIso(clock.now())))) throw await decidedMeanwhile(tx, clearanceId);
        const c = (await s.byId(tx, clearanceId))!;
        await audit.record({ ...clearanceAudit(c), actor: actorOf(session.user), action: 'clearance.sent_back', targetUserId: c.requested_by }, tx);
        seen.drop(c.id);
        return view(tx, c);
      });
      const kept = notes.keep(found.org_id, found.requested_by, found.batch_id, found.id, note);
      return { clearance, note_kept: kept };
    },

    /** What became of the clearances the analyst asked for in one batch, with send-back notes while held. */
    async outcomes(session: SessionContext, batchId: string): Promise<ClearanceOutcome[]> {
      const held = notes.of(session.org.id, session.user.id, batchId);
      const out: ClearanceOutcome[] = [];
      for (const c of await s.ofBatch(q, session.org.id, batchId, session.user.id)) {
        out.push({ ...(await view(q, c)), note: c.state === 'sent_back' ? (held.get(c.id) ?? null) : null });
      }
      return out;
    },

    /** The analyst opened a batch: send-back notes and what they saw of their last one are let go. */
    batchOpened(orgId: number, userId: number, batchId: string): void {
      notes.batchOpened(orgId, userId, batchId);
      seen.batchOpened(orgId, userId, batchId);
    },

    /** The analyst signed out (their console dropped the batch's results): what is held about it goes. */
    analystSignedOut(orgId: number, userId: number): void {
      notes.analystLeft(orgId, userId);
      seen.analystLeft(orgId, userId);
    },

    /** Send-back notes held in memory (tests). */
    notesHeld: (): number => notes.size(),

    /** Clearings' "what the analyst saw" held in memory (tests). */
    seenHeld: (): number => seen.size(),
  };
}
export type Review = ReturnType<typeof createReview>;
