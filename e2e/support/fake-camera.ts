// Chromium's fake camera reads a y4m file: frames as raw YUV 4:2:0 (BT.601, limited range), which
// it loops. Made here from PNG/JPEG frames of the test faces.
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/** Writes `frames` (all of one size) as a y4m at `fps`. */
export async function writeY4m(path: string, frames: Buffer[], fps: number): Promise<void> {
  const parts: Buffer[] = [];
  let header = '';
  const clamp = (x: number) => Math.max(0, Math.min(255, Math.round(x)));
  for (const image of frames) {
    const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { width: w, height: h } = info;
    header ||= `YUV4MPEG2 W${w} H${h} F${fps}:1 Ip A1:1 C420jpeg\n`;
    const y = Buffer.alloc(w * h);
    const u = Buffer.alloc((w / 2) * (h / 2));
    const v = Buffer.alloc((w / 2) * (h / 2));
    for (let row = 0; row < h; row++) {
      for (let col = 0; col < w; col++) {
        const i = (row * w + col) * 3;
        const [r, g, b] = [data[i]! / 255, data[i + 1]! / 255, data[i + 2]! / 255];
        y[row * w + col] = clamp(16 + 65.481 * r + 128.553 * g + 24.966 * b);
        if (row % 2 === 0 && col % 2 === 0) {
          const j = (row / 2) * (w / 2) + col / 2;
          u[j] = clamp(128 - 37.797 * r - 74.203 * g + 112 * b);
          v[j] = clamp(128 + 112 * r - 93.786 * g - 18.214 * b);
        }
      }
    }
    parts.push(Buffer.from('FRAME\n'), y, u, v);
  }
  await writeFile(path, Buffer.concat([Buffer.from(header), ...parts]));
}

/** The launch arguments that feed Chromium's camera from `y4m` without a permission prompt. */
export const fakeCameraArgs = (y4m: string): string[] => [
  '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${y4m}`,
];
