// Display formatting shared by the screens. The ISO value stays available as a title. Dates
// follow the console's date-format preference (stores/preferences.ts).
import { localToday } from '../../../src-shared/dates';
import { usePreferences } from '../stores/preferences';

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

