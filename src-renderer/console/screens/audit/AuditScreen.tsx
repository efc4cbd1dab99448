// Audit log (owners and admins): who did what and when, newest first, with filters, the hash
// chain's status, and an export of exactly what the table holds (ids, codes, counts, hashes).
import { useState, type FormEvent } from 'react';
import { AUDIT_ACTION_LABEL, AUDIT_ACTIONS, auditCsv, type AuditAction, type AuditEntry, type AuditQuery } from '../../../../src-shared/contracts/audit';
import { errorText } from '../../api/client';
import { saveFile } from '../../api/shell';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { DateInput } from '../../components/DateInput';
import { DataGrid } from '../../components/DataGrid';
import { formatNumber } from '../../components/format';
import { localDayStart, localToday } from '../../../../src-shared/dates';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useSession } from '../../stores/session';
import { auditApi } from './audit-api';
import { auditColumns } from './audit-columns';
import './audit.css';
import { may } from '../../../../src-shared/policy';

const PER_PAGE = 50;
const EXPORT_PAGE = 500;

interface Filters {
  action: AuditAction | '';
  actor: string;
  /** YYYY-MM-DD, local days. */
  from: string;
  to: string;
  reference: string;
}

const NO_FILTERS: Filters = { action: '', actor: '', from: '', to: '', reference: '' };

/** Local calendar days to instants: from the start of `from` to the end of `to`. */
function toQuery(f: Filters): Omit<AuditQuery, 'page' | 'per_page'> {
  return {
    ...(f.action ? { action: f.action } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.from ? { from: localDayStart(f.from) } : {}),
    ...(f.to ? { to: localDayStart(f.to, 1) } : {}),
    ...(f.reference.trim() ? { client_reference: f.reference.trim() } : {}),
  };
}

function ChainStatus() {
  const chain = useResource((signal) => auditApi.verify(signal), []);
  if (chain.error) return <Alert testId="audit-chain-error" title="Could not check the audit log.">{chain.error}</Alert>;
  const v = chain.data;
  if (!v) return <p className="muted" data-testid="audit-chain" data-ok="">Checking the audit log…</p>;
  return v.ok ? (
    <div data-testid="audit-chain" data-ok="true">
      <Alert tone="success" title="Verified.">
        All {formatNumber(v.rows)} rows are as the service wrote them: each row’s hash covers the row before it.
      </Alert>
    </div>
  ) : (
    <div data-testid="audit-chain" data-ok="false" data-first-bad={v.first_bad_seq}>
      <Alert title={`The audit log was changed outside the service, at row ${v.first_bad_seq}.`}>
        {v.reason}. The {formatNumber(v.rows)} rows before it are intact.
      </Alert>
    </div>
  );
}

export function AuditScreen() {
  const role = useSession((s) => s.session?.user.role);
  const allowed = may(role, 'audit.read');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [reference, setReference] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const query = toQuery(filters);
  const log = useResource(
    (signal) => (allowed ? auditApi.page({ ...query, page, per_page: PER_PAGE }, signal) : Promise.resolve(null)),
    [allowed, page, filters.action, filters.actor, filters.from, filters.to, filters.reference],
  );

  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const onFind = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    set({ reference });
  };

  const exportCsv = async () => {
    setExporting(true);
    setNotice(null);
    try {
      const entries: AuditEntry[] = [];
      for (let p = 1; ; p++) {
        const chunk = await auditApi.page({ ...query, page: p, per_page: EXPORT_PAGE });
        entries.push(...chunk.entries);
        if (p >= chunk.pages) break;
      }
      const saved = await saveFile({ defaultName: `audit-log-${localToday()}.csv`, content: auditCsv(entries), filters: [{ name: 'CSV', extensions: ['csv'] }] });
      if (saved.saved) setNotice({ tone: 'success', text: `Exported ${formatNumber(entries.length)} rows${saved.path ? ` to ${saved.path}` : ''}.` });
    } catch (e) {
      setNotice({ tone: 'error', text: `Could not export the audit log: ${errorText(e)}` });
    } finally {
      setExporting(false);
    }
  };

  if (!allowed) {
    return (
      <>
        <ScreenHeader title="Audit log" />
        <section className="panel placeholder" data-testid="audit-not-allowed">
          <p>Only owners and admins can see the audit log.</p>
        </section>
      </>
    );
  }

  const data = log.data ?? null;
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  return (
    <>
      <ScreenHeader
        title="Audit log"
        summary="Every screening, batch, disposition, list, key, plan and setting change, webhook, hosted link, age gate, report and sign-in, with who and when. It holds ids and codes, never a customer’s details."
        actions={
          <button type="button" className="btn" onClick={() => void exportCsv()} disabled={exporting || !data || data.total === 0} data-testid="audit-export">
            {exporting ? 'Exporting…' : filtered ? 'Export these rows as CSV…' : 'Export CSV…'}
          </button>
        }
      />
      <ChainStatus />
      {notice ? <Alert tone={notice.tone} testId="audit-notice">{notice.text}</Alert> : null}
      {log.error ? <Alert testId="audit-error" title="Could not load the audit log.">{log.error}</Alert> : null}

      <section className="panel" aria-labelledby="audit-heading" aria-busy={log.loading}>
        <div className="panel-header">
          <h2 id="audit-heading">Entries</h2>
          <span className="muted" data-testid="audit-total" data-total={data?.total ?? ''}>
            {data ? `${formatNumber(data.total)} ${data.total === 1 ? 'entry' : 'entries'}${filtered ? ' match' : ''}` : 'Loading…'}
          </span>
        </div>
        <form className="audit-filters" onSubmit={onFind} aria-label="Filter the audit log">
          <div className="field">
            <label htmlFor="audit-action">Action</label>
            <select id="audit-action" value={filters.action} onChange={(e) => set({ action: e.currentTarget.value as AuditAction | '' })} data-testid="audit-filter-action">
              <option value="">All actions</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>{AUDIT_ACTION_LABEL[a]}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-actor">Who</label>
            <select id="audit-actor" value={filters.actor} onChange={(e) => set({ actor: e.currentTarget.value })} data-testid="audit-filter-actor">
              <option value="">Everyone</option>
              {(data?.actors ?? []).map((a) => (
                <option key={a.user_id} value={String(a.user_id)}>{a.email}</option>
              ))}
              <option value="cli">Admin CLI</option>
              <option value="system">System</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="audit-from">From</label>
            <DateInput id="audit-from" value={filters.from} max={filters.to || undefined} onChange={(iso) => set({ from: iso })} testId="audit-filter-from" />
          </div>
          <div className="field">
            <label htmlFor="audit-to">To</label>
            <DateInput id="audit-to" value={filters.to} min={filters.from || undefined} onChange={(iso) => set({ to: iso })} testId="audit-filter-to" />
          </div>
          <div className="field audit-reference">
            <label htmlFor="audit-reference">Client reference</label>
            <div className="audit-reference-row">
              <input
                id="audit-reference" type="search" autoComplete="off" value={reference} placeholder="Exact reference"
                onChange={(e) => setReference(e.currentTarget.value)} data-testid="audit-filter-reference" aria-describedby="audit-reference-hint"
              />
              <button type="submit" className="btn" data-testid="audit-filter-find">Find</button>
            </div>
            <div id="audit-reference-hint" className="field-hint">Matched by its keyed hash; the log never holds the reference itself.</div>
          </div>
          {filtered ? (
            <button
              type="button" className="link-button audit-clear" data-testid="audit-filter-clear"
              onClick={() => {
                setReference('');
                set(NO_FILTERS);
              }}
            >
              Clear filters
            </button>
          ) : null}
        </form>
        <DataGrid
          label="Audit log"
          rows={data?.entries ?? []}
          columns={auditColumns}
          getRowKey={(e) => String(e.seq)}
          testId="audit-table"
          rowTestId="audit-row"
          totalRows={data?.total}
          firstRowIndex={(page - 1) * PER_PAGE}
          empty={log.loading && !data ? 'Loading the audit log…' : filtered ? 'No entries match these filters.' : 'Nothing has been recorded yet.'}
        />
        {data && data.total > 0 ? (
          <Pager page={data.page} pages={data.pages} total={data.total} noun={['entries', 'entry']} onPage={setPage} disabled={log.loading} />
        ) : null}
      </section>
    </>
  );
}
