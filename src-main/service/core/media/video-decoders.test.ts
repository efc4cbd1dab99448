// Clips are decoded one ffmpeg per core at most (issue 25: 12 clips at once started 12 decoders),
// and a burst past the decoders' queue is answered busy at once instead of waiting.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as fx from '../../test/face-fixtures';
import { decodeFrames, VIDEO_DECODERS, VIDEO_QUEUE, VIDEO_SUPPORTED } from './video';

/** ffmpeg processes this process started that are running now. */
function ffmpegChildren(): number {
  let n = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && /ffmpeg/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) n++;
    } catch {
      // gone
    }
  }
  return n;
}

describe.skipIf(!VIDEO_SUPPORTED || process.platform !== 'linux')('video decoders', () => {
  it(`runs at most ${VIDEO_DECODERS} ffmpeg at once however many clips arrive; past the queue, 503 ANALYSIS_BUSY at once`, async () => {
    const clip = await fx.clip(await fx.selfieFrames(true, 18), 'webm');
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, ffmpegChildren())), 5);
    try {
      const burst = VIDEO_DECODERS + VIDEO_QUEUE;
      const results = await Promise.allSettled(Array.from({ length: burst + 3 }, () => decodeFrames('file', clip)));
      const refused = results.filter((r) => r.status === 'rejected');
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(burst);
      expect(refused).toHaveLength(3);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'analysis_busy', details: { retry_after: 2 } });
    } finally {
      clearInterval(watch);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(VIDEO_DECODERS);
  }, 120_000);
});
