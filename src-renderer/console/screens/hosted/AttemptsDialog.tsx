// A hosted session's failed attempts as the analyst sees them (issue 26): when, the failure code,
// the challenge rule missed, and each rule's value against its limit. Codes and numbers only: the
// service keeps no picture or document contents with a session.
import type { HostedSessionView } from '../../../../src-shared/contracts/hosted';
import { Dialog } from '../../components/Dialog';
import { formatDateTime } from '../../components/format';
import { PRODUCT_INFO } from './labels';

/** Values as the rules measure them: whole numbers stay whole, fractions keep two decimals. */
const num = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

export function AttemptsDialog({ session, onClose }: { session: HostedSessionView; onClose: () => void }) {
  const attempts = session.failed_attempts;
  return (
    <Dialog
      title="Failed attempts"
      onClose={onClose}
      testId="hosted-attempts-dialog"
      footer={<button type="button" className="btn btn-primary" onClick={onClose} data-testid="hosted-attempts-done">Done</button>}
    >
      <p className="muted">
        {PRODUCT_INFO[session.product].label} session made {formatDateTime(session.created_at)}: {attempts.length} of{' '}
        {session.attempts_allowed} {session.attempts_allowed === 1 ? 'attempt' : 'attempts'} failed. The person was told what to do
        from each failure code; nothing they sent is kept.
      </p>
      <ol className="hs-attempts">
        {attempts.map((a) => (
          <li key={a.attempt} data-testid="hosted-attempt" data-reason={a.reason ?? ''}>
            <p className="hs-attempt-head">
              <strong>Attempt {a.attempt}</strong> <time dateTime={a.at} className="muted">{formatDateTime(a.at)}</time>
            </p>
            <p>
              Failure <code className="mono" data-testid="hosted-attempt-reason">{a.reason ?? 'unknown'}</code>
              {a.rule ? <> · challenge rule missed <code className="mono" data-testid="hosted-attempt-rule">{a.rule}</code></> : null}
              {a.verification_id ? <> · verification <code className="mono">{a.verification_id}</code></> : null}
            </p>
            {a.checks.length ? (
              <table className="hs-attempt-checks" data-testid="hosted-attempt-checks">
                <thead>
                  <tr><th scope="col">Rule</th><th scope="col" className="num">Value</th><th scope="col" className="num">Limit</th><th scope="col">Result</th></tr>
                </thead>
                <tbody>
                  {a.checks.map((c) => (
                    <tr key={c.rule} className={c.passed ? undefined : 'hs-check-missed'}>
                      <td><code className="mono">{c.rule}</code></td>
                      <td className="num">{num(c.value)}</td>
                      <td className="num">{num(c.limit)}</td>
                      <td>{c.passed ? 'Met' : 'Missed'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        ))}
      </ol>
    </Dialog>
  );
}
