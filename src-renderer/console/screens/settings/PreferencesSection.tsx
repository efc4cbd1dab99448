// Settings → Preferences: how this console shows things. Kept in this window's storage (not the
// service), so each analyst's console keeps its own; nothing about subjects is in them.
import { shell } from '../../api/shell';
import { DATE_FORMATS, PAGE_SIZES, usePreferences, type DateFormat, type PageSize } from '../../stores/preferences';

const DATE_LABEL: Record<DateFormat, string> = {
  local: 'This computer’s style (15 Jan 2026, 12:00)',
  iso: 'ISO (2026-01-15 12:00)',
};

export function PreferencesSection() {
  const dateFormat = usePreferences((s) => s.dateFormat);
  const pageSize = usePreferences((s) => s.pageSize);
  const set = usePreferences((s) => s.set);
  return (
    <section className="panel settings-panel" aria-labelledby="preferences-heading" data-testid="settings-preferences">
      <div className="panel-header">
        <h2 id="preferences-heading">Preferences</h2>
      </div>
      <div className="settings-body">
        <p className="muted" data-testid="preferences-kept">
          {shell()?.connection.mode === 'team'
            ? 'For this console only; kept until the app closes (a computer connected to a team server keeps nothing of its console).'
            : 'For this console only; saved on this computer.'}
        </p>
        <div className="field">
          <label htmlFor="pref-date-format">Dates</label>
          <select id="pref-date-format" value={dateFormat} onChange={(e) => set({ dateFormat: e.currentTarget.value as DateFormat })} data-testid="pref-date-format">
            {DATE_FORMATS.map((f) => <option key={f} value={f}>{DATE_LABEL[f]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="pref-page-size">Rows per page in the verification ledger</label>
          <select id="pref-page-size" value={pageSize} onChange={(e) => set({ pageSize: Number(e.currentTarget.value) as PageSize })} data-testid="pref-page-size">
            {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
      </div>
    </section>
  );
}
