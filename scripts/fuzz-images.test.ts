// `npm run fuzz:images`, short: hostile images and clips against the built service's image intake.
// None may answer 5xx or quote the input, and the service must keep answering. The full run is
// `npm run fuzz:images` (10,000 inputs).
import { describe, expect, it } from 'vitest';
import { runImageFuzz } from './fuzz-images';

describe('npm run fuzz:images (short)', () => {
  it('no 5xx, no echoed bytes, every request answered, health still 200', async () => {
    const r = await runImageFuzz({ count: 600, seed: 1, concurrency: 8 });
    expect(r.serverErrors).toEqual([]);
    expect(r.echoes).toEqual([]);
    expect(r.failedConnections).toBe(0);
    expect(r.healthAfter).toBe(200);
    // Most inputs are refused by the intake; some decode and are answered.
    expect(r.statuses['400']).toBeGreaterThan(r.requests / 2);
    expect(r.statuses['200']).toBeGreaterThan(0);
    // EXIF bombs are photos with junk around them: analysed as the photo (their time is the command's figure).
    expect(r.bombs.bomb.map((b) => b.status)).toEqual([200, 200]);
    expect(r.bombs.selfie.status).toBe(200);
    console.log(`fuzz:images (short): EXIF bombs ${r.bombs.bomb.map((b) => `${b.ms} ms`).join(', ')}, the selfie beside them ${r.bombs.selfie.ms} ms`);
  }, 180_000);
});
