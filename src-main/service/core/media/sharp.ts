// sharp (libvips), loaded when an image is first decoded: its native library cost ~0.1 s of every
// start, and a screening desk may never decode an image (issue 38). Imported as the ES module
// (sharp ships an ESM and a CommonJS build: one of them, everywhere, is one set of settings).
import type SharpDefault from 'sharp';

type Sharp = typeof SharpDefault;
let loading: Promise<Sharp> | undefined;

/**
 * sharp, set up once: its in-memory cache of recently decoded images is off (subject images must
 * not outlive their request), and one libvips thread an image (the face workers need the cores).
 */
export function loadSharp(): Promise<Sharp> {
  return (loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));
}
