// The active liveness challenge's clip: a few seconds of the camera recorded with MediaRecorder
// (WebM; MP4 where the browser records only that, as Safari does), kept in memory as base64 for
// the request plus a Blob for the preview. Nothing is written to storage.
//
// What the service takes (src-main/service/core/media/video.ts): a WebM, MP4 or MOV clip of at
// most 10 MB (and 20 s, 120 frames a second, 4K), of which 10 frames from the first 3.3 s (3 per
// second) are held to the head-turn challenge: the same single face, turning to one side and
// back (or blinking). The service names the recording's length (HostedPage.challenge); CLIP_MS
// is the fallback. The bit rate is high on purpose: at about 1 Mbit/s the encoder's artefacts
// alone moved the landmarks of a filmed still picture by a degree; 6 Mbit/s × 3.2 s is at most
// about 2.4 MB, far below the 10 MB limit (a still scene takes much less).
import type { Photo } from './images';

/** Recording length when the service names none: its 10 frames at 3 per second span 0–3 s. */
export const CLIP_MS = 3200;
/** Asked of the encoder (a ceiling: still scenes take far less). */
const BITS_PER_SECOND = 6_000_000;
/** The service's limit for one file (IMAGE_MAX_BYTES). */
const MAX_BYTES = 10 * 1024 * 1024;
const TYPES = ['video/webm;codecs=vp8', 'video/webm;codecs=vp9', 'video/webm', 'video/mp4'];

/** The container this browser records in, or null when it cannot record a clip the service takes. */
export function clipType(): string | null {
  if (typeof window === 'undefined' || typeof window.MediaRecorder === 'undefined') return null;
  const supported = typeof MediaRecorder.isTypeSupported === 'function' ? (t: string) => MediaRecorder.isTypeSupported(t) : () => false;
  return TYPES.find(supported) ?? null;
}

export interface Recording {
  /** Resolves with the clip once the recording has stopped (after CLIP_MS, or early on cancel). */
  done: Promise<Photo>;
  /** Stops early; the promise rejects. */
  cancel: () => void;
}

/** Records `ms` of the stream's video; `onTick` gets the elapsed milliseconds about ten times a second. */
export function recordClip(stream: MediaStream, type: string, onTick: (elapsed: number) => void, ms = CLIP_MS): Recording {
  const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: BITS_PER_SECOND });
  const chunks: Blob[] = [];
  let cancelled = false;
  let started = 0;
  let ticker = 0;
  let stopper = 0;
  const clear = () => {
    window.clearInterval(ticker);
    window.clearTimeout(stopper);
  };
  const done = new Promise<Photo>((resolve, reject) => {
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    recorder.onerror = () => {
      clear();
      reject(new Error('recording failed'));
    };
    recorder.onstop = () => {
      clear();
      if (cancelled) return reject(new Error('cancelled'));
      const blob = new Blob(chunks, { type: recorder.mimeType || type });
      chunks.length = 0;
      if (blob.size === 0) return reject(new Error('empty recording'));
      if (blob.size > MAX_BYTES) return reject(new Error('recording too large'));
      const reader = new FileReader();
      reader.onload = () => {
        const url = String(reader.result);
        resolve({ b64: url.slice(url.indexOf(',') + 1), blob, clip: true });
      };
      reader.onerror = () => reject(new Error('reading failed'));
      reader.readAsDataURL(blob);
    };
    recorder.onstart = () => {
      started = performance.now();
      onTick(0);
      ticker = window.setInterval(() => onTick(Math.min(ms, performance.now() - started)), 100);
      stopper = window.setTimeout(() => {
        if (recorder.state !== 'inactive') recorder.stop();
      }, ms);
    };
    try {
      recorder.start();
    } catch {
      reject(new Error('recording failed'));
    }
  });
  return {
    done,
    cancel: () => {
      cancelled = true;
      clear();
      if (recorder.state !== 'inactive') recorder.stop();
    },
  };
}
