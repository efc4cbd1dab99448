// The bounds a clip is held to before any of its frames is decoded for analysis. The magic bytes
// and the byte size are checked at intake (image.ts); this reads the container's own header
// through ffmpeg's demuxer probe (`ffmpeg -i`, which lists the streams), with the decoder's pixel
// ceiling set, so a frame larger than the limit is never allocated even where the probe looks
// into the first packet. The same run lists every video packet's timestamp (`-c copy -f framecrc`:
// demuxed, never decoded), because a browser's WebM recording declares neither its length nor its
// frame rate (ffmpeg's guess, `tbr`, is the container's 1 kHz clock): the length and the most
// frames in any one second are measured from the packets. Declared or measured, the larger is
// held to the limits below; a refusal is a 400 naming the field and the issue, never quoting the
// clip.
import { AppError } from '../../../../src-shared/errors';

export const VIDEO_LIMITS = {
  /** A 4K UHD frame (3840 × 2160); phones film at most this for a selfie clip. */
  maxPixels: 3840 * 2160,
  /** Longest side, so a 1 × 8,000,000 strip is refused too. */
  maxSide: 4096,
  /** Frames per second (phones' slow motion goes to 240; a liveness clip needs no more than 120). */
  maxFps: 120,
  /** Seconds; only the first seconds are analysed, and the page records about 3. */
  maxSeconds: 20,
  /** What phones and browsers record (MediaRecorder: VP8, VP9, H.264; iPhones: HEVC, H.264). */
  codecs: ['h264', 'hevc', 'vp8', 'vp9', 'av1'] as readonly string[],
  /** All streams (video, audio, phones' metadata tracks); exactly one of them video. */
  maxStreams: 4,
} as const;

export const VIDEO_PROBLEMS = {
  too_many_pixels: `has frames larger than ${VIDEO_LIMITS.maxPixels.toLocaleString('en-US')} pixels or ${VIDEO_LIMITS.maxSide} pixels on a side`,
  frame_rate_too_high: `is a video of more than ${VIDEO_LIMITS.maxFps} frames per second`,
  too_long: `is a video longer than ${VIDEO_LIMITS.maxSeconds} seconds`,
  unsupported_codec: 'is a video in a codec other than H.264, HEVC, VP8, VP9 or AV1',
  too_many_streams: `is a video with no video stream, more than one, or more than ${VIDEO_LIMITS.maxStreams} streams`,
  corrupt: 'could not be decoded (corrupt or truncated)',
} as const;
export type VideoProblem = keyof typeof VIDEO_PROBLEMS;

export function videoError(field: string, problem: VideoProblem): AppError {
  return new AppError('invalid_image', { message: `${field} ${VIDEO_PROBLEMS[problem]}`, fields: [{ field, issue: problem }] });
}

export interface ClipHeader {
  /** Seconds, when the container says (a browser's live WebM recording does not). */
  duration: number | null;
  /** `fps`: the declared rate or the most video packets in one second, whichever is higher. */
  video: { codec: string; width: number; height: number; fps: number | null }[];
  streams: number;
}

/** A rate as ffmpeg prints it: `25`, `29.97`, `1k`, `90k`. */
function rate(text: string): number {
  const m = /^([\d.]+)(k?)$/.exec(text);
  return m ? Number(m[1]) * (m[2] ? 1000 : 1) : Number.NaN;
}

/** What the video packets say: the clip's length and the most packets in any one second. */
export function measurePackets(framecrc: string): { seconds: number; busiestSecond: number } | null {
  const tb = /^#tb 0: (\d+)\/(\d+)$/m.exec(framecrc);
  if (!tb || Number(tb[2]) === 0) return null;
  const unit = Number(tb[1]) / Number(tb[2]);
  const times: number[] = [];
  let last = 0;
  for (const m of framecrc.matchAll(/^0,\s*-?\d+,\s*(-?\d+),\s*(\d+),/gm)) {
    times.push(Number(m[1]) * unit);
    last = Number(m[2]) * unit;
  }
  if (times.length === 0) return null;
  times.sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  return { seconds: times[times.length - 1]! - times[0]! + last, busiestSecond: busiest };
}

/**
 * The header as the probe printed it (ffmpeg's `Input #0` block) with the packets' measure, or
 * null when ffmpeg found no container there. Only the first input's lines are read; metadata
 * values are never looked at.
 */
export function parseProbe(stderr: string, packets: { seconds: number; busiestSecond: number } | null = null): ClipHeader | null {
  const start = stderr.indexOf('Input #0');
  if (start < 0) return null;
  const end = ['Output #0', 'Stream mapping:'].map((m) => stderr.indexOf(m, start)).filter((i) => i > 0);
  const lines = stderr.slice(start, end.length ? Math.min(...end) : undefined).split('\n');
  const firstSecond = packets ? packets.busiestSecond : null;
  let duration: number | null = null;
  const video: ClipHeader['video'] = [];
  let streams = 0;
  for (const line of lines) {
    const d = /^\s+Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(line);
    if (d) duration = Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]);
    const s = /^\s+Stream #0:\d+[^:]*: (\w+): (\w+)(.*)$/.exec(line);
    if (!s) continue;
    streams += 1;
    if (s[1] !== 'Video') continue;
    const rest = s[3] ?? '';
    const size = /, (\d{1,6})x(\d{1,6})[ ,]/.exec(`${rest} `);
    const declared = /, ([\d.]+k?) fps/.exec(rest);
    const rates = [declared ? rate(declared[1]!) : null, video.length === 0 ? firstSecond : null].filter((r): r is number => r !== null);
    video.push({
      codec: s[2]!, width: size ? Number(size[1]) : 0, height: size ? Number(size[2]) : 0,
      fps: rates.length ? rates.reduce((a, b) => (Number.isNaN(a) || Number.isNaN(b) ? Number.NaN : Math.max(a, b))) : null,
    });
  }
  if (packets) duration = Math.max(duration ?? 0, packets.seconds);
  return { duration, video, streams };
}

/** Refuses a header outside the bounds, in a fixed order: streams, a readable stream, codec, size, rate, length. */
export function checkClipHeader(field: string, h: ClipHeader | null): void {
  if (!h) throw videoError(field, 'corrupt');
  const v = h.video[0];
  if (!v || h.video.length !== 1 || h.streams > VIDEO_LIMITS.maxStreams) throw videoError(field, 'too_many_streams');
  // A stream whose codec or size ffmpeg could not read is a cut or broken file, not a foreign codec.
  if (v.codec === 'none' || v.width <= 0 || v.height <= 0) throw videoError(field, 'corrupt');
  if (!VIDEO_LIMITS.codecs.includes(v.codec)) throw videoError(field, 'unsupported_codec');
  if (v.width * v.height > VIDEO_LIMITS.maxPixels || Math.max(v.width, v.height) > VIDEO_LIMITS.maxSide) throw videoError(field, 'too_many_pixels');
  if (v.fps !== null && !(v.fps <= VIDEO_LIMITS.maxFps)) throw videoError(field, 'frame_rate_too_high');
  if (h.duration !== null && h.duration > VIDEO_LIMITS.maxSeconds) throw videoError(field, 'too_long');
}
