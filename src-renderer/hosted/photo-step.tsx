// One picture: the camera (getUserMedia; the front camera for a selfie, the back one for a
// document) or a file, shown back to the person before they continue. The stream stops when the
// photo is taken, the camera is closed or the step is left; preview URLs are revoked.
// With `challenge` (the service requires a liveness clip and holds it to its head-turn challenge)
// the open camera asks for a short head turn instead: a clip of the length the service names,
// recorded in memory (clip.ts), sent in place of the photo. No photo is offered then (the service
// refuses one): a browser that cannot record video is told so, and where to go instead.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { CLIP_MS, clipType, recordClip, type Recording } from './clip';
import { photoFromFile, photoFromVideo, type Photo } from './images';
import { t } from './strings';

export type PhotoKind = 'selfie' | 'id_front' | 'id_back';

interface Props {
  kind: PhotoKind;
  title: string;
  hint: string;
  progress: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  photo: Photo | null;
  onPhoto: (photo: Photo | null) => void;
  announce: (message: string) => void;
  /** Above the picture: a note or the service's error for this step. */
  notice?: ReactNode;
  continueLabel: string;
  onContinue: () => void;
  onSkip?: () => void;
  onBack?: () => void;
  /** The active liveness challenge: the service takes only a recorded head turn, never a photo. */
  challenge?: boolean;
  /** The recording's length the service asks for, ms. */
  clipMs?: number;
  /** The service asked for another recording: the camera button says Try again. */
  again?: boolean;
}

/** The cue for a moment of the recording: look, turn to one side, come back. */
function cueAt(elapsed: number, clipMs: number): string {
  if (elapsed < clipMs * 0.2) return t.cueLook;
  if (elapsed < clipMs * 0.55) return t.cueTurn;
  return t.cueBack;
}

function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

const canUseCamera = () => typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

export function PhotoStep(props: Props) {
  const { kind, photo, onPhoto, announce } = props;
  const selfie = kind === 'selfie';
  const inputId = useId();
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [camera, setCamera] = useState<'off' | 'starting' | 'on' | 'recording'>('off');
  const [problem, setProblem] = useState<string | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [recordFailed, setRecordFailed] = useState(false);
  const recordingRef = useRef<Recording | null>(null);
  const cueRef = useRef<HTMLParagraphElement>(null);
  const preview = useObjectUrl(photo?.blob ?? null);
  const [recordType] = useState(() => (props.challenge && canUseCamera() ? clipType() : null));
  const challenge = recordType !== null;
  // The service asks for a clip this browser cannot record: no photo instead, since it would be refused.
  const cannotRecord = !!props.challenge && !challenge;
  const clipMs = props.clipMs ?? CLIP_MS;
  const clipSeconds = Math.round(clipMs / 1000);

  const stopCamera = () => {
    recordingRef.current?.cancel();
    recordingRef.current = null;
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setCamera('off');
  };
  // Leaving the step (or the page) always releases the camera.
  useEffect(() => () => {
    recordingRef.current?.cancel();
    streamRef.current?.getTracks().forEach((track) => track.stop());
  }, []);

  const startCamera = async () => {
    setProblem(null);
    setRecordFailed(false);
    setCamera('starting');
    announce(t.cameraStarting);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { facingMode: selfie ? 'user' : { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 960 } },
      });
      streamRef.current = stream;
      onPhoto(null);
      setCamera('on');
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      announce(challenge ? t.challengeReady : t.cameraReady);
    } catch {
      stopCamera();
      const problem = challenge ? t.cameraDeniedVideo : t.cameraDenied;
      setProblem(problem);
      announce(problem);
    }
  };

  const takePhoto = async () => {
    const video = videoRef.current;
    if (!video || video.videoWidth === 0) return;
    try {
      const p = await photoFromVideo(video);
      stopCamera();
      onPhoto(p);
      announce(t.photoReady);
    } catch {
      setProblem(t.photoUnreadable);
    }
  };

  // The challenge: the cue and the countdown follow the recording; the clip replaces the photo.
  const lastCue = useRef('');
  const record = async () => {
    const stream = streamRef.current;
    if (!stream || !recordType) return;
    setProblem(null);
    setElapsed(0);
    lastCue.current = '';
    let recording: Recording;
    try {
      recording = recordClip(stream, recordType, (ms) => {
        setElapsed(ms);
        const cue = cueAt(ms, clipMs);
        if (cue !== lastCue.current) {
          lastCue.current = cue;
          announce(cue);
        }
      }, clipMs);
    } catch {
      return failRecording();
    }
    recordingRef.current = recording;
    setCamera('recording');
    requestAnimationFrame(() => cueRef.current?.focus());
    try {
      const clip = await recording.done;
      if (recordingRef.current !== recording) return;
      recordingRef.current = null;
      stopCamera();
      onPhoto(clip);
      announce(t.clipReady);
      requestAnimationFrame(() => props.headingRef.current?.focus());
    } catch {
      if (recordingRef.current === recording) failRecording();
    }
  };
  const failRecording = () => {
    recordingRef.current = null;
    stopCamera();
    setRecordFailed(true);
    setProblem(t.clipFailed);
    announce(t.clipFailed);
  };

  const chooseFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    setRecordFailed(false);
    stopCamera();
    try {
      const p = await photoFromFile(file);
      onPhoto(p);
      announce(t.photoReady);
    } catch {
      onPhoto(null);
      setProblem(t.photoUnreadable);
      announce(t.photoUnreadable);
    }
  };

  const proceed = () => {
    if (!photo) {
      setProblem(t.photoMissing);
      announce(t.photoMissing);
      return;
    }
    props.onContinue();
  };

  if (cannotRecord) {
    return (
      <section className="step" aria-labelledby={`${inputId}-title`} data-testid={`step-${kind}`}>
        <p className="progress">{props.progress}</p>
        <h2 id={`${inputId}-title`} ref={props.headingRef} tabIndex={-1}>{props.title}</h2>
        {props.notice}
        <div className="problem" role="alert" data-testid="video-unsupported">
          <p><strong>{t.videoUnsupported}</strong></p>
          <p>{t.videoUnsupportedHint}</p>
        </div>
        {props.onBack && (
          <div className="nav">
            <button type="button" className="link" onClick={props.onBack}>{t.back}</button>
          </div>
        )}
      </section>
    );
  }

  return (
    <section className="step" aria-labelledby={`${inputId}-title`} data-testid={`step-${kind}`}>
      <p className="progress">{props.progress}</p>
      <h2 id={`${inputId}-title`} ref={props.headingRef} tabIndex={-1}>{props.title}</h2>
      <p className="hint">{props.hint}</p>
      {props.notice}
      {problem && <p className="problem" role="alert" data-testid="photo-problem">{problem}</p>}

      {challenge && camera === 'on' && (
        <div className="challenge" data-testid="challenge-instructions">
          <ol>
            {t.challengeSteps.map((line) => <li key={line}>{line}</li>)}
          </ol>
          <p className="hint">{t.challengeLength(clipSeconds)}</p>
          <p className="hint">{t.challengeBlink}</p>
        </div>
      )}
      {camera === 'recording' && (
        <div className="challenge recording" data-testid="challenge-recording">
          <p className="cue" ref={cueRef} tabIndex={-1} data-testid="challenge-cue">{cueAt(elapsed, clipMs)}</p>
          <progress max={clipMs} value={elapsed} aria-label={t.recordingLabel} data-testid="challenge-progress" />
          <p className="countdown" aria-hidden="true" data-testid="challenge-countdown">
            {t.secondsLeft(Math.max(1, Math.ceil((clipMs - elapsed) / 1000 - 0.2)))}
          </p>
        </div>
      )}

      <div className={`frame${selfie ? ' frame-selfie' : ''}${camera === 'off' && preview ? ' frame-photo' : ''}`} hidden={camera === 'off' && !preview}>
        <video
          ref={videoRef}
          className={selfie ? 'mirrored' : undefined}
          hidden={camera === 'off'}
          playsInline
          muted
          aria-label={t.cameraPreview}
          data-testid="camera-video"
        />
        {camera === 'off' && preview && !photo?.clip && <img src={preview} alt={t.photoPreview(props.title)} data-testid="photo-preview" />}
        {camera === 'off' && preview && photo?.clip && (
          <video src={preview} controls muted playsInline aria-label={t.clipPreview} data-testid="clip-preview" />
        )}
      </div>

      <div className="actions">
        {camera === 'on' && (
          <>
            {challenge ? (
              <button type="button" className="primary" onClick={() => void record()} data-testid="start-recording">{t.startRecording}</button>
            ) : (
              <button type="button" className="primary" onClick={() => void takePhoto()} data-testid="take-photo">{t.takePhoto}</button>
            )}
            <button type="button" className="secondary" onClick={stopCamera}>{t.closeCamera}</button>
          </>
        )}
        {camera === 'off' && canUseCamera() && (
          <button
            type="button"
            className={photo && !recordFailed ? 'secondary' : 'primary'}
            onClick={() => void startCamera()}
            data-testid={recordFailed || (props.again && !photo) ? 'try-again' : 'open-camera'}
          >
            {recordFailed || (props.again && !photo) ? t.tryAgain : photo ? (photo.clip ? t.recordAgain : t.retake) : t.openCamera}
          </button>
        )}
        {/* The challenge takes a recording only: the service refuses a photo instead. */}
        {camera !== 'on' && camera !== 'recording' && !challenge && (
          <span className="file-pick">
            <input
              id={inputId}
              type="file"
              accept="image/*"
              capture={selfie ? 'user' : 'environment'}
              className="file-input"
              data-testid="photo-file"
              onChange={(e) => {
                void chooseFile(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
            <label htmlFor={inputId} className="button secondary">{t.chooseFile}</label>
          </span>
        )}
      </div>

      <div className="nav">
        {props.onBack && <button type="button" className="link" onClick={props.onBack}>{t.back}</button>}
        {props.onSkip && !photo && <button type="button" className="secondary" onClick={props.onSkip} data-testid="skip">{t.skip}</button>}
        <button type="button" className="primary" onClick={proceed} disabled={camera !== 'off'} data-testid="continue">{props.continueLabel}</button>
      </div>
    </section>
  );
}
