// "Change plan": the owner records the plan the organization bought. The dialog says what the
// change does before it is made: rate limits, screening and compliance, team size.
import { useId, useState, type FormEvent } from 'react';
import { PLAN_INFO, type Plan } from '../../../../src-shared/catalog';
import { planIncludes } from '../../../../src-shared/policy';
import type { Account } from '../../../../src-shared/contracts/accounts';
import { api, errorText } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Dialog } from '../../components/Dialog';
import { formatNumber } from '../../components/format';
import { FormFooter } from '../../components/FormFooter';
import { PlanChoice, teamText } from '../../components/PlanChoice';

function rate(rps: number, burst: number): string {
  return `${formatNumber(rps)}/s, bursts of ${formatNumber(burst)}`;
}

function Changes({ from, to }: { from: Plan; to: Plan }) {
  const a = PLAN_INFO[from];
  const b = PLAN_INFO[to];
  const rows: [string, string, string][] = [
    ['Verification requests', rate(a.verification.rps, a.verification.burst), rate(b.verification.rps, b.verification.burst)],
    ['Read requests', rate(a.read.rps, a.read.burst), rate(b.read.rps, b.read.burst)],
    ['Screening & compliance', planIncludes(from, 'compliance') ? 'Included' : 'Not included', planIncludes(to, 'compliance') ? 'Included' : 'Not included'],
    ['Team size', teamText(a.team_size), teamText(b.team_size)],
  ];
  return (
    <dl className="plan-changes" data-testid="plan-changes">
      {rows.map(([label, before, after]) => (
        <div key={label} data-changed={before !== after}>
          <dt>{label}</dt>
          <dd>{before === after ? before : <>{before} → <strong>{after}</strong></>}</dd>
        </div>
      ))}
    </dl>
  );
}

interface ChangePlanDialogProps {
  current: Plan;
  onClose: () => void;
  onChanged: (account: Account) => void;
}

export function ChangePlanDialog({ current, onClose, onChanged }: ChangePlanDialogProps) {
  const formId = useId();
  const [plan, setPlan] = useState<Plan>(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const losesCompliance = planIncludes(current, 'compliance') && !planIncludes(plan, 'compliance');

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (plan === current) return;
    setBusy(true);
    setError(null);
    try {
      onChanged(await api.changePlan({ plan }));
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Change plan"
      onClose={onClose}
      busy={busy}
      testId="change-plan-dialog"
      description={
        <p>
          Record the plan your organization bought. There is no payment in this app, and a change grants no credits. The new limits
          apply at once to every API key and to this console.
        </p>
      }
      footer={
        <FormFooter
          formId={formId} busy={busy} onCancel={onClose} busyLabel="Changing…" submitTestId="change-plan-confirm"
          submitLabel={plan === current ? 'Choose a plan' : `Change to ${PLAN_INFO[plan].label}`}
        />
      }
    >
      <form id={formId} className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error ? <Alert testId="change-plan-error">{error}</Alert> : null}
        <PlanChoice name="change-plan" value={plan} onChange={setPlan} current={current} legend="New plan" testIdPrefix="change-plan" />
        {plan !== current ? (
          <section aria-label="What changes" className="form">
            <Changes from={current} to={plan} />
            {losesCompliance ? (
              <Alert tone="warning" testId="change-plan-compliance-warning" title="Screening stops.">
                API keys with the compliance scope will be refused (HTTP 403), and screening and batch rescreens in this console stop until
                the organization moves back to Pro or Enterprise. The keys themselves are kept.
              </Alert>
            ) : null}
          </section>
        ) : null}
      </form>
    </Dialog>
  );
}
