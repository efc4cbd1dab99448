// The spec's "advanced dashboard settings" are the same record under other names (Age Gate
// Enabled, Verification Mode, Scope, Logo URL…; docs/decisions.md): shown here as a summary of
// the form above, so there is one control per setting and no way for two to disagree.
import type { AgeGateSettingsInput } from '../../../../src-shared/contracts/age-gate';
import { durationLabel, SCOPE_LABEL, SESSION_MODE_LABEL, USE_CASE_LABEL } from './labels';

export function AdvancedSummary({ settings: s }: { settings: AgeGateSettingsInput }) {
  const applyTo = s.apply_to ?? 'all_pages';
  const scope =
    applyTo === 'product_tag' ? `${SCOPE_LABEL[applyTo]} (tag “${s.product_tag ?? ''}”)`
      : applyTo === 'collection_tag' ? `${SCOPE_LABEL[applyTo]} (tag “${s.collection_tag ?? ''}”)`
        : applyTo === 'page_handles' ? `${SCOPE_LABEL[applyTo]} (${(s.page_handles ?? []).join(', ') || 'none yet'})`
          : SCOPE_LABEL[applyTo];
  const logo = !s.logo ? 'None' : s.logo.startsWith('data:') ? 'Uploaded picture' : s.logo;
  const rows: [string, string][] = [
    ['Age Gate Enabled', s.enabled ? 'Yes' : 'No'],
    ['Verification Mode', SESSION_MODE_LABEL[s.session_mode ?? 'guest'].label],
    ['Minimum Age', String(s.min_age ?? '')],
    ['Use Case', USE_CASE_LABEL[s.use_case ?? 'adult']],
    ['Scope', scope],
    ['Session Duration', durationLabel(s.session_duration_hours ?? 24)],
    ['Require Selfie', s.require_selfie ? 'Yes' : 'No (attestation only)'],
    ['Underage Redirect URL', s.underage_redirect_url || 'None'],
    ['Custom Message', s.custom_message?.trim() ? s.custom_message : 'None (the use case’s message)'],
    ['Logo URL', logo],
  ];
  return (
    <details className="ag-advanced" data-testid="age-gate-advanced">
      <summary>Advanced settings</summary>
      <p className="field-hint">The same settings under the names of the advanced dashboard. Change them in the form above.</p>
      <dl className="facts ag-facts">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
