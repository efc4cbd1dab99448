// Plan & credits: the plan and its limits (the owner changes it), the balance, and the
// append-only credit ledger.
import { useState } from 'react';
import type { Account } from '../../../../src-shared/contracts/accounts';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DataGrid } from '../../components/DataGrid';
import { LoadError } from '../../components/LoadError';
import { formatNumber } from '../../components/format';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useSession } from '../../stores/session';
import { ChangePlanDialog } from './ChangePlanDialog';
import { ledgerColumns } from './ledger-columns';
import { may, planNames, seesCredits } from '../../../../src-shared/policy';

const PER_PAGE = 20;

function PlanLimits({ plan }: { plan: Account['plan'] }) {
  return (
    <dl className="facts">
      <div>
        <dt>Verification requests</dt>
        <dd>
          {formatNumber(plan.verification_rps)} per second, bursts of {formatNumber(plan.verification_burst)}
        </dd>
      </div>
      <div>
        <dt>Read requests</dt>
        <dd>
          {formatNumber(plan.read_rps)} per second, bursts of {formatNumber(plan.read_burst)}
        </dd>
      </div>
      <div>
        <dt>Team size</dt>
        <dd>{plan.team_size === null ? 'Unlimited' : `${plan.team_size} ${plan.team_size === 1 ? 'person' : 'people'}`}</dd>
      </div>
      <div>
        <dt>Compliance &amp; screening</dt>
        <dd>{plan.compliance ? 'Included' : `${planNames('compliance', 'and')} plans only`}</dd>
      </div>
    </dl>
  );
}

export function PlanScreen() {
  const [page, setPage] = useState(1);
  const account = useResource((signal) => api.account(signal), []);
  const user = useSession((s) => s.session?.user);
  const isOwner = may(user?.role, 'plan.change');
  // The ledger is for those who see credits (owners, admins, members with billing access).
  const showLedger = user !== undefined && seesCredits(user);
  const ledger = useResource((signal) => (showLedger ? api.ledger(page, PER_PAGE, signal) : Promise.resolve(null)), [page, showLedger]);
  const balance = ledger.data?.balance ?? account.data?.credits.balance;
  const setOrganization = useSession((s) => s.setOrganization);
  const [changing, setChanging] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <>
      <ScreenHeader title="Plan & credits" summary="Your plan, its limits, and every credit granted or spent." />
      {account.error ? <Alert testId="account-error" title="Could not load your plan.">{account.error}</Alert> : null}
      {notice ? <Alert tone="success" testId="plan-notice">{notice}</Alert> : null}

      <div className="cards">
        <section className="panel card" aria-labelledby="balance-heading" data-testid="balance-card">
          <h2 id="balance-heading" className="card-title">Credit balance</h2>
          <p className="big-number" data-testid="credit-balance">
            {balance === undefined ? '…' : formatNumber(balance)}
          </p>
          <p className="muted">
            Credits available for live requests. Test keys and demo keys never consume credits.
          </p>
        </section>

        <section className="panel card" aria-labelledby="plan-heading" data-testid="plan-card">
          <div className="card-title-row">
            <h2 id="plan-heading" className="card-title">Plan</h2>
            {isOwner && account.data ? (
              <button type="button" className="btn btn-small" onClick={() => setChanging(true)} data-testid="change-plan">
                Change plan…
              </button>
            ) : null}
          </div>
          <p className="plan-name" data-testid="plan-label">{account.data ? account.data.plan.label : '…'}</p>
          {account.data ? <PlanLimits plan={account.data.plan} /> : null}
          {!isOwner ? <p className="muted" data-testid="plan-owner-only">Only the organization's owner can change the plan.</p> : null}
        </section>
      </div>

      {!showLedger ? (
        <section className="panel" aria-labelledby="ledger-heading" data-testid="ledger-hidden">
          <h2 id="ledger-heading">Credit ledger</h2>
          <p className="muted">The ledger is for the owner, admins and members the owner gave billing access.</p>
        </section>
      ) : (
        <section className="panel" aria-labelledby="ledger-heading" aria-busy={ledger.loading}>
          <div className="panel-header">
            <h2 id="ledger-heading">Credit ledger</h2>
            <span className="muted">Newest first. Entries are never edited; corrections are new entries.</span>
          </div>
          <LoadError testId="ledger-error" title="Could not load the ledger." error={ledger.error} onRetry={ledger.reload} />
          <DataGrid
            label="Credit ledger"
            rows={ledger.data?.entries ?? []}
            columns={ledgerColumns}
            getRowKey={(e) => String(e.id)}
            testId="ledger-table"
            rowTestId="ledger-row"
            totalRows={ledger.data?.total}
            firstRowIndex={(page - 1) * PER_PAGE}
            empty={ledger.loading && !ledger.data ? 'Loading the ledger…' : 'No credit movements yet.'}
          />
          {ledger.data && ledger.data.total > 0 ? (
            <Pager
              page={ledger.data.page}
              pages={ledger.data.pages}
              total={ledger.data.total}
              noun={['entries', 'entry']}
              onPage={setPage}
              disabled={ledger.loading}
            />
          ) : null}
        </section>
      )}

      {changing && account.data ? (
        <ChangePlanDialog
          current={account.data.plan.id}
          onClose={() => setChanging(false)}
          onChanged={(next) => {
            setChanging(false);
            setOrganization(next.organization);
            setNotice(`The plan is now ${next.plan.label}. Its limits apply from now on.`);
            account.reload();
          }}
        />
      ) : null}
    </>
  );
}
