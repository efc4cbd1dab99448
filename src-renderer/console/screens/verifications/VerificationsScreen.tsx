// Verifications: the ledger of liveness, age and screening checks in the environment the console
// works in (ids, outcomes, credits and timings: the service keeps no subject data to show), with
// filters, and in test mode the try panel.
import { useEffect, useState } from 'react';
import { BILLABLE, type Billable } from '../../../../src-shared/catalog';
import type { VerificationEntry } from '../../../../src-shared/contracts/verifications';
import { api } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Alert } from '../../components/Alert';
import { Badge } from '../../components/Badge';
import { DateInput } from '../../components/DateInput';
import { DataGrid, type GridColumn } from '../../components/DataGrid';
import { formatDateTime, formatNumber } from '../../components/format';
import { localDayStart } from '../../../../src-shared/dates';
import { Pager } from '../../components/Pager';
import { ScreenHeader } from '../../components/ScreenHeader';
import { useEnv } from '../../stores/env';
import { usePreferences } from '../../stores/preferences';
import { PRODUCT_LABEL, REASON_LABEL, statusTone } from './labels';
import { TryPanel } from './TryPanel';
import { verificationsApi } from './verifications-api';
import './verifications.css';


interface Filters {
  product: Billable | '';
  status: string;
  key: string;
  from: string;
  to: string;
  /** A verification id (or its start) or a client reference (exact); sent as typed, never kept. */
  search: string;
}
const NO_FILTERS: Filters = { product: '', status: '', key: '', from: '', to: '', search: '' };
/** Typing pauses this long before the ledger is asked. */
const SEARCH_DELAY_MS = 300;

/** A selfie's liveness on weaker evidence than the head-turn clip, said in the ledger (issue 37). */
const EVIDENCE_LABEL: Record<'still_photo' | 'video_clip', string> = { still_photo: 'still photo', video_clip: 'clip, no head turn' };
const EVIDENCE_TITLE = 'Weaker evidence of a live person than the head-turn clip: a print, screen or replay can pass it. Settings can require the clip of API keys.';

const columns: GridColumn<VerificationEntry>[] = [
  { id: 'at', header: 'Time', width: '196px', nowrap: true, cell: (r) => <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time> },
  { id: 'product', header: 'Product', width: '110px', nowrap: true, cell: (r) => <span data-testid="ledger-product">{PRODUCT_LABEL[r.product]}</span> },
  {
    id: 'status', header: 'Outcome', width: 'minmax(0, 1.4fr)',
    cell: (r) => (
      <span className="ledger-outcome" data-testid="ledger-status" data-status={r.status}>
        <Badge tone={statusTone(r.status)}>{r.status}</Badge>
        {r.failure_reason ? <span className="muted">{REASON_LABEL[r.failure_reason] ?? r.failure_reason}</span> : null}
        {r.liveness_evidence && r.liveness_evidence !== 'head_turn_clip' ? (
          <span className="muted" data-testid="ledger-evidence" title={EVIDENCE_TITLE}>{EVIDENCE_LABEL[r.liveness_evidence]}</span>
        ) : null}
      </span>
    ),
  },
  {
    // A screening has no confidence: the ledger keeps its risk score (0–100) in that place.
    id: 'confidence', header: 'Confidence', width: '100px', numeric: true,
    cell: (r) => {
      if (r.confidence === null) return '—';
      if (r.product === 'screen' || r.product === 'rescreen') {
        return <span title="A screening has a risk score (0–100), not a confidence" data-testid="ledger-risk">risk {formatNumber(r.confidence)}</span>;
      }
      return r.confidence.toFixed(1);
    },
  },
  {
    id: 'key', header: 'Key', width: 'minmax(0, 1fr)',
    cell: (r) => (r.api_key_id ? <span title={r.api_key_id}>{r.api_key_name ?? r.api_key_id}</span> : <span className="muted">Console</span>),
  },
  { id: 'credits', header: 'Credits', width: '80px', numeric: true, cell: (r) => formatNumber(r.credits) },
  { id: 'latency', header: 'Took', width: '90px', numeric: true, nowrap: true, cell: (r) => (r.latency_ms === null ? '—' : `${formatNumber(r.latency_ms)} ms`) },
  { id: 'id', header: 'Verification id', width: 'minmax(0, 1.2fr)', cell: (r) => <code className="mono muted">{r.verification_id}</code> },
];

export function VerificationsScreen() {
  const env = useEnv((s) => s.env);
  const perPage = usePreferences((s) => s.pageSize);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [version, setVersion] = useState(0);
  const keys = useResource((signal) => api.listKeys(env, signal), [env]);
  const ledger = useResource(
    (signal) => verificationsApi.page({
      env, page, per_page: perPage,
      ...(filters.product ? { product: filters.product } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.key ? { key: filters.key } : {}),
      ...(filters.from ? { from: localDayStart(filters.from) } : {}),
      ...(filters.to ? { to: localDayStart(filters.to, 1) } : {}),
      ...(filters.search ? { search: filters.search } : {}),
    }, signal),
    [env, page, perPage, version, filters.product, filters.status, filters.key, filters.from, filters.to, filters.search],
  );
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  // The search box asks once typing pauses (or at Enter), not at every key.
  const [searchText, setSearchText] = useState('');
  const search = searchText.trim();
  useEffect(() => {
    if (search === filters.search) return undefined;
    const timer = setTimeout(() => {
      setFilters((f) => ({ ...f, search }));
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.search]);
  const data = ledger.data;
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  return (
    <>
      <ScreenHeader
        title="Verifications"
        summary={`Every liveness, age and screening check in ${env === 'test' ? 'test' : 'live'} mode: outcome, confidence, key, credits and time taken. Images, names and dates of birth are never kept, so none can be shown.`}
      />
      {env === 'test' ? <TryPanel onRecorded={() => setVersion((v) => v + 1)} /> : null}
      {ledger.error ? <Alert testId="ledger-error" title="Could not load the verifications.">{ledger.error}</Alert> : null}
      <section className="panel" aria-labelledby="ledger-heading" aria-busy={ledger.loading}>
        <div className="panel-header">
          <h2 id="ledger-heading">Ledger</h2>
          <span className="muted" data-testid="ledger-total" data-total={data?.total ?? ''}>
            {data ? `${formatNumber(data.total)} ${data.total === 1 ? 'verification' : 'verifications'}${filtered ? ' match' : ''}` : 'Loading…'}
          </span>
        </div>
        <form className="ledger-filters" aria-label="Filter the ledger" onSubmit={(e) => { e.preventDefault(); if (search !== filters.search) set({ search }); }}>
          <div className="field ledger-search">
            <label htmlFor="ledger-search">Search</label>
            <input
              id="ledger-search" type="search" value={searchText} maxLength={200} autoComplete="off" spellCheck={false}
              placeholder="Verification id or client reference" aria-describedby="ledger-search-hint"
              onChange={(e) => setSearchText(e.currentTarget.value)} data-testid="ledger-search"
            />
            <div id="ledger-search-hint" className="field-hint">An id or its first characters; a client reference exactly as sent.</div>
          </div>
          <div className="field">
            <label htmlFor="ledger-product">Product</label>
            <select id="ledger-product" value={filters.product} onChange={(e) => set({ product: e.currentTarget.value as Billable | '' })} data-testid="ledger-filter-product">
              <option value="">All products</option>
              {BILLABLE.map((p) => <option key={p} value={p}>{PRODUCT_LABEL[p]}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ledger-status">Outcome</label>
            <select id="ledger-status" value={filters.status} onChange={(e) => set({ status: e.currentTarget.value })} data-testid="ledger-filter-status">
              <option value="">All outcomes</option>
              {(data?.statuses ?? []).map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ledger-key">Key</label>
            <select id="ledger-key" value={filters.key} onChange={(e) => set({ key: e.currentTarget.value })} data-testid="ledger-filter-key">
              <option value="">All keys and the console</option>
              <option value="console">The console</option>
              {(keys.data?.keys ?? []).map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="ledger-from">From</label>
            <DateInput id="ledger-from" value={filters.from} max={filters.to || undefined} onChange={(iso) => set({ from: iso })} testId="ledger-filter-from" />
          </div>
          <div className="field">
            <label htmlFor="ledger-to">To</label>
            <DateInput id="ledger-to" value={filters.to} min={filters.from || undefined} onChange={(iso) => set({ to: iso })} testId="ledger-filter-to" />
          </div>
          {filtered ? <button type="button" className="link-button ledger-clear" onClick={() => { setSearchText(''); set(NO_FILTERS); }}>Clear filters</button> : null}
        </form>
        <DataGrid
          label="Verification ledger" rows={data?.entries ?? []} columns={columns} getRowKey={(r) => r.verification_id}
          testId="ledger-grid" rowTestId="ledger-row" maxHeight={520} totalRows={data?.total} firstRowIndex={(page - 1) * perPage}
          empty={
            filtered
              ? filters.search
                ? 'No verification has this id (or an id starting with it) or this client reference, with these filters.'
                : 'No verification matches these filters.'
              : `No verifications in ${env} mode yet. Calls made with your API keys${env === 'test' ? ', and tries above,' : ''} appear here.`
          }
        />
        {data && data.pages > 1 ? <Pager page={data.page} pages={data.pages} total={data.total} noun={['verifications', 'verification']} onPage={setPage} disabled={ledger.loading} /> : null}
      </section>
    </>
  );
}
