// Display formatting shared by the screens. The ISO value stays available as a title. Dates
// follow the console's date-format preference (stores/preferences.ts).
import { localToday, type DayOrder } from '../../../src-shared/dates';
import { usePreferences, type DateFormat } from '../stores/preferences';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

const pad = (n: number) => String(n).padStart(2, '0');
/** Local time as YYYY-MM-DD (and HH:MM). */
function isoLocal(d: Date, time: boolean): string {
  const day = localToday(d);
  return time ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}` : day;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return usePreferences.getState().dateFormat === 'iso' ? isoLocal(d, true) : dateTime.format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return usePreferences.getState().dateFormat === 'iso' ? isoLocal(d, false) : dateOnly.format(d);
}

/** The time of day alone, for moments minutes away (the full value belongs in a title). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return usePreferences.getState().dateFormat === 'iso' ? isoLocal(d, true).slice(11) : timeOnly.format(d);
}

/** How a date field shows and reads a date: the parts' order, their separator, and the form spelled out. */
export interface DateFieldStyle {
  order: DayOrder;
  separator: string;
  /** "YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY"… */
  placeholder: string;
}

const ISO_STYLE: DateFieldStyle = { order: 'ymd', separator: '-', placeholder: 'YYYY-MM-DD' };
let localStyle: DateFieldStyle | undefined;

/** The order and separator this machine's locale writes a numeric date in (15/01/2026, 01/15/2026, 15.01.2026, 2026/01/15). */
function localDateStyle(): DateFieldStyle {
  if (localStyle) return localStyle;
  const parts = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2026, 0, 15));
  const kinds = parts.flatMap((p) => (p.type === 'day' ? ['d'] : p.type === 'month' ? ['m'] : p.type === 'year' ? ['y'] : []));
  const found = kinds.join('');
  const order: DayOrder = found === 'dmy' || found === 'mdy' || found === 'ymd' ? found : 'ymd';
  // The literal between the first two parts ("/", ".", "-", ". "); the date module reads any of /, . and -.
  const literal = parts.find((p, i) => p.type === 'literal' && i > 0 && i < parts.length - 1)?.value.trim() ?? '';
  const separator = ['/', '.', '-'].includes(literal) ? literal : '/';
  const names = { d: 'DD', m: 'MM', y: 'YYYY' } as const;
  localStyle = { order, separator, placeholder: order.split('').map((k) => names[k as keyof typeof names]).join(separator) };
  return localStyle;
}

/** How date fields show and read dates under a date-format preference: ISO, or the locale's order. */
export function dateFieldStyle(format: DateFormat): DateFieldStyle {
  return format === 'iso' ? ISO_STYLE : localDateStyle();
}

/** Bytes as people read them: 1.2 MB, 340 KB (powers of 1024). */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n.toLocaleString()} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatNumber(n: number): string {
  return n.toLocaleString();
}

export function formatSigned(n: number): string {
  return n > 0 ? `+${n.toLocaleString()}` : n.toLocaleString();
}

