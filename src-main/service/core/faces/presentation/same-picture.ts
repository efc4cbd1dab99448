// "The selfie is the ID document's picture" (issue 37: the card photo sent as both the document
// and the selfie verified 14 of 30 documents): a difference hash of each whole image, grey, 9 × 8
// cells; adjacent cells compared give 64 bits. The same picture at another size or compression
// differs by a few bits; a selfie and a photo of a document differ by about half of them. Pure
// JavaScript on the decoded images; nothing is kept but the distance.

/** Bits (of 64) at or under which two images are the same picture. */
export const SAME_PICTURE_BITS = 10;

/** The 64-bit difference hash of an RGB image: the grey mean of 9 × 8 cells, each compared with its right neighbour. */
export function pictureHash(img: { rgb: Uint8Array; width: number; height: number }): bigint {
  const cols = 9;
  const rows = 8;
  const cell = new Float64Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    const y0 = Math.floor((r * img.height) / rows);
    const y1 = Math.max(y0 + 1, Math.floor(((r + 1) * img.height) / rows));
    for (let c = 0; c < cols; c++) {
      const x0 = Math.floor((c * img.width) / cols);
      const x1 = Math.max(x0 + 1, Math.floor(((c + 1) * img.width) / cols));
      // Every other pixel each way: the mean of a cell does not need all of them.
      let sum = 0;
      let n = 0;
      for (let y = y0; y < y1; y += 2) {
        for (let x = x0; x < x1; x += 2) {
          const i = (y * img.width + x) * 3;
          sum += 0.299 * img.rgb[i]! + 0.587 * img.rgb[i + 1]! + 0.114 * img.rgb[i + 2]!;
          n++;
        }
      }
      cell[r * cols + c] = n ? sum / n : 0;
    }
  }
  let hash = 0n;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols - 1; c++) hash = (hash << 1n) | (cell[r * cols + c]! > cell[r * cols + c + 1]! ? 1n : 0n);
  return hash;
}

/** Bits in which two hashes differ (0-64). */
export function hashDistance(a: bigint, b: bigint): number {
  let x = a ^ b;
  let n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}
