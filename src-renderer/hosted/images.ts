// Pictures stay in memory: a camera frame or a chosen file is drawn on a canvas, re-encoded as a
// JPEG (bounded size; the EXIF orientation applied by the browser, metadata dropped), and kept as
// base64 for the request plus a Blob for the preview. Nothing is written to storage.

const MAX_SIDE = 1600;
const QUALITY = 0.9;

export interface Photo {
  /** Base64 JPEG without the data: prefix (what the service's image fields take). */
  b64: string;
  blob: Blob;
  /** A short video clip (the liveness challenge) rather than a picture. */
  clip?: boolean;
}

function toPhoto(source: CanvasImageSource, width: number, height: number): Promise<Photo> {
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no 2d canvas'));
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) return reject(new Error('encoding failed'));
      const reader = new FileReader();
      reader.onload = () => {
        const url = String(reader.result);
        resolve({ b64: url.slice(url.indexOf(',') + 1), blob });
      };
      reader.onerror = () => reject(new Error('reading failed'));
      reader.readAsDataURL(blob);
    }, 'image/jpeg', QUALITY);
  });
}

export async function photoFromFile(file: Blob): Promise<Photo> {
  const bitmap = await createImageBitmap(file);
  try {
    return await toPhoto(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

export function photoFromVideo(video: HTMLVideoElement): Promise<Photo> {
  return toPhoto(video, video.videoWidth, video.videoHeight);
}
