// Settings: the organization (name and logo shown on hosted pages and PDF reports), how it
// reviews (four-eyes makes clearing a strong sanctions match count only once an owner or admin
// other than the analyst approves it), this console's preferences, and the data directory.
// Everyone sees the settings; owners and admins change them, and each change is in the audit log.
import { useState } from 'react';
import { api, errorText } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useSession } from '../../stores/session';
import { AppSchemesSection } from './AppSchemesSection';
import { DataDirectorySection } from './DataDirectorySection';
import { DesktopConnectionSection } from './DesktopConnectionSection';
import { HostedAttemptsSection } from './HostedAttemptsSection';
import { LivenessSection } from './LivenessSection';
import { ListFreshnessSection } from './ListFreshnessSection';
import { OrganizationSection } from './OrganizationSection';
import { PreferencesSection } from './PreferencesSection';
import { PrivateHostsSection } from './PrivateHostsSection';
import { PublicUrlSection } from './PublicUrlSection';
import { TeamServerSection } from './TeamServerSection';
import { may } from '../../../../src-shared/policy';

export function SettingsScreen() {
  const role = useSession((s) => s.session?.user.role);
  const canChange = may(role, 'settings.manage');
  const settings = useResource((signal) => api.settings(signal), []);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [fourEyes, setFourEyes] = useState<boolean | null>(null);
  const on = fourEyes ?? settings.data?.four_eyes ?? false;

  const change = async (next: boolean) => {
    const before = on;
    // The box shows the choice at once; a refusal puts it back.
    setFourEyes(next);
    setBusy(true);
    setNotice(null);
    try {
      const saved = await api.updateSettings({ four_eyes: next });
      setFourEyes(saved.four_eyes);
      setNotice({
        tone: 'success',
        text: saved.four_eyes
          ? 'Four-eyes is on. A cleared strong sanctions match now waits for an owner or admin other than the analyst.'
          : 'Four-eyes is off. An analyst’s clearance with a reason counts at once.',
      });
    } catch (e) {
      setFourEyes(before);
      setNotice({ tone: 'error', text: `Could not change the setting: ${errorText(e)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ScreenHeader title="Settings" summary="Your organization, how it reviews screening results, and this console." />
      <OrganizationSection canChange={canChange} />
      {settings.error ? <Alert testId="settings-error" title="Could not load the settings.">{settings.error}</Alert> : null}
      {notice ? <Alert tone={notice.tone} testId="settings-notice">{notice.text}</Alert> : null}
      <section className="panel settings-panel" aria-labelledby="review-settings-heading" aria-busy={settings.loading || busy}>
        <div className="panel-header">
          <h2 id="review-settings-heading">Review</h2>
        </div>
        <div className="settings-body">
          <label className={`option option-single${canChange ? '' : ' option-disabled'}`}>
            <input
              type="checkbox"
              checked={on}
              disabled={!canChange || busy || !settings.data}
              onChange={(e) => void change(e.currentTarget.checked)}
              data-testid="settings-four-eyes"
            />
            <span>
              <strong>Four-eyes for strong sanctions matches</strong>
              <span className="option-hint">
                Clearing a strong sanctions match (score 85 or more) as a false positive always needs a reason. With four-eyes on, it also
                counts only once a second person, an owner or admin other than the analyst, approves it by signing in at the analyst’s
                Risk review screen. Until then the row shows “Awaiting approval”, and saved results say so.
              </span>
            </span>
          </label>
          {canChange ? null : <p className="muted" data-testid="settings-read-only">Only owners and admins change this setting.</p>}
        </div>
      </section>
      <ListFreshnessSection canChange={canChange} />
      <AppSchemesSection canChange={canChange} />
      <PublicUrlSection canChange={canChange} />
      <TeamServerSection canManage={may(role, 'team_server.manage')} />
      <PrivateHostsSection canChange={may(role, 'webhooks.allow_private')} />
      <HostedAttemptsSection canChange={canChange} />
      <LivenessSection canChange={canChange} />
      <PreferencesSection />
      <DesktopConnectionSection />
      {canChange ? <DataDirectorySection /> : null}
    </>
  );
}
