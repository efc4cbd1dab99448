// Columns of the Reports screen's tables and of its charts' "Show data" tables.
import type { Usage, WidgetRow } from '../../../../src-shared/contracts/reports';
import type { GridColumn } from '../../components/DataGrid';
import { count, millis, percent, score } from './figures';

type KeyRow = Usage['by_api_key'][number];

/** Checks made without a key (the console, hosted pages) have no key id. */
function keyName(row: { api_key_id: string | null; name: string }) {
  return (
    <span className="cell-stack">
      <span className="cell-strong">{row.name}</span>
      <span className="mono muted">{row.api_key_id ?? 'no API key'}</span>
    </span>
  );
}

export const usageByKeyColumns: GridColumn<KeyRow>[] = [
  { id: 'name', header: 'API key', cell: keyName, width: 'minmax(0, 2fr)' },
  { id: 'count', header: 'Verifications', cell: (r) => count(r.count), numeric: true },
  { id: 'pass_rate', header: 'Pass rate', cell: (r) => percent(r.pass_rate), numeric: true },
];

export const widgetColumns: GridColumn<WidgetRow>[] = [
  { id: 'name', header: 'Widget (API key)', cell: keyName, width: 'minmax(0, 2fr)' },
  { id: 'total', header: 'Total', cell: (r) => count(r.total), numeric: true },
  { id: 'pass', header: 'Passed', cell: (r) => count(r.pass), numeric: true },
  { id: 'fail', header: 'Failed', cell: (r) => count(r.fail), numeric: true },
  { id: 'pass_rate', header: 'Pass rate', cell: (r) => percent(r.pass_rate), numeric: true },
  { id: 'avg_confidence', header: 'Avg confidence', cell: (r) => score(r.avg_confidence), numeric: true },
  { id: 'avg_latency_ms', header: 'Avg latency', cell: (r) => millis(r.avg_latency_ms), numeric: true },
];

export interface WidgetRisk {
  api_key_id: string | null;
  name: string;
  total: number;
  risk_score: number;
}

export const widgetRiskColumns: GridColumn<WidgetRisk>[] = [
  { id: 'name', header: 'Widget (API key)', cell: keyName, width: 'minmax(0, 2fr)' },
  { id: 'total', header: 'Verifications', cell: (r) => count(r.total), numeric: true },
  { id: 'risk_score', header: 'Risk score', cell: (r) => score(r.risk_score), numeric: true },
];

/** A "Show data" row of a chart: a label and its figures. */
export interface LabelledRow {
  key: string;
  label: string;
  value: number;
  share?: number | null;
}

export function labelledColumns(valueHeader: string, shareHeader?: string): GridColumn<LabelledRow>[] {
  const cols: GridColumn<LabelledRow>[] = [
    { id: 'label', header: 'Item', cell: (r) => r.label, width: 'minmax(0, 2fr)' },
    { id: 'value', header: valueHeader, cell: (r) => count(r.value), numeric: true },
  ];
  if (shareHeader) cols.push({ id: 'share', header: shareHeader, cell: (r) => percent(r.share ?? null), numeric: true });
  return cols;
}

export interface TrendRow {
  date: string;
  total: number;
  pass: number;
  fail: number;
}

export const trendColumns: GridColumn<TrendRow>[] = [
  { id: 'date', header: 'Date', cell: (r) => r.date, nowrap: true },
  { id: 'total', header: 'Total', cell: (r) => count(r.total), numeric: true },
  { id: 'pass', header: 'Passed', cell: (r) => count(r.pass), numeric: true },
  { id: 'fail', header: 'Failed', cell: (r) => count(r.fail), numeric: true },
];
