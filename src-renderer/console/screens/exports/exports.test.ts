import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExportJob, ExportStatus } from '../../../../src-shared/contracts/reports';
import { expiryOf, expiryText, formatBytes, isExpired } from '../../components/reports/export-labels';
import { pollJob } from './poll-job';

const NOW = Date.parse('2026-01-15T12:00:00Z');

describe('export expiry', () => {
  it('counts down in hours and minutes and then says expired', () => {
    const at = new Date(NOW + (23 * 60 + 12) * 60_000 + 30_000).toISOString();
    expect(expiryText(at, NOW)).toBe('expires in 23 h 12 min');
    expect(expiryText(new Date(NOW + 4 * 60_000 + 5).toISOString(), NOW)).toBe('expires in 4 min');
    expect(expiryText(new Date(NOW + 59_000).toISOString(), NOW)).toBe('expires in less than a minute');
    expect(expiryText(new Date(NOW).toISOString(), NOW)).toBe('expired');
    expect(isExpired(new Date(NOW - 1).toISOString(), NOW)).toBe(true);
    expect(isExpired(new Date(NOW + 1000).toISOString(), NOW)).toBe(false);
    expect(isExpired(null, NOW)).toBe(false);
  });

  it('takes the job view expiry, else 24 hours after the file was made, and none before success', () => {
    expect(expiryOf({ status: 'succeeded', completed_at: '2026-01-15T10:00:00.000Z' })).toBe('2026-01-16T10:00:00.000Z');
    expect(expiryOf({ status: 'succeeded', completed_at: '2026-01-15T10:00:00.000Z', expires_at: '2026-01-16T10:00:05.000Z' })).toBe(
      '2026-01-16T10:00:05.000Z',
    );
    expect(expiryOf({ status: 'running', completed_at: null })).toBeNull();
    expect(expiryOf({ status: 'failed', completed_at: '2026-01-15T10:00:00.000Z' })).toBeNull();
  });

  it('formats sizes', () => {
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12_700)).toBe('12.4 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});

function job(status: ExportStatus): ExportJob {
  return {
    id: 7, report_type: 'overview', format: 'pdf', status, file_size_bytes: null, created_at: '2026-01-15T12:00:00Z',
    completed_at: null, params: { env: 'test', from: '2026-01-01', to: '2026-01-15' }, download_url: null, expires_at: null, error_code: null,
  };
}

describe('polling an export job', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks while queued or running, backs off, and stops when the job is done', async () => {
    const answers: ExportStatus[] = ['queued', 'running', 'running', 'succeeded'];
    const get = vi.fn(async () => job(answers.shift() ?? 'succeeded'));
    const seen: ExportStatus[] = [];
    pollJob(7, { get, onJob: (j) => seen.push(j.status), delayMs: 1000, maxDelayMs: 2000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(get).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual(['queued']);
    await vi.advanceTimersByTimeAsync(1500);
    expect(seen).toEqual(['queued', 'running']);
    await vi.advanceTimersByTimeAsync(2000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(seen).toEqual(['queued', 'running', 'running', 'succeeded']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(get).toHaveBeenCalledTimes(4);
  });

  it('stops when the screen goes away, aborting a request in flight', async () => {
    let signal: AbortSignal | undefined;
    const get = vi.fn((_id: number, s: AbortSignal) => {
      signal = s;
      return new Promise<ExportJob>(() => undefined);
    });
    const onJob = vi.fn();
    const stop = pollJob(7, { get, onJob, delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(get).toHaveBeenCalledTimes(1);
    stop();
    expect(signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(get).toHaveBeenCalledTimes(1);
    expect(onJob).not.toHaveBeenCalled();
  });

  it('keeps asking through a failure and gives up after three in a row', async () => {
    const get = vi.fn(async () => {
      throw new Error('Cannot reach the service');
    });
    const onGiveUp = vi.fn();
    pollJob(7, { get, onJob: vi.fn(), onGiveUp, delayMs: 1000, maxDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(onGiveUp).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(onGiveUp).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get).toHaveBeenCalledTimes(3);
  });
});
