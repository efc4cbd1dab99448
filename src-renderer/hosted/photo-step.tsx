// One picture: the camera (getUserMedia; the front camera for a selfie, the back one for a
// document) or a file, shown back to the person before they continue. The stream stops when the
// photo is taken, the camera is closed or the step is left; preview URLs are revoked.
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
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
  const [camera, setCamera] = useState<'off' | 'starting' | 'on'>('off');
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useObjectUrl(photo?.blob ?? null);

  const stopCamera = () => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setCamera('off');
  };
  // Leaving the step (or the page) always releases the camera.
  useEffect(() => () => streamRef.current?.getTracks().forEach((track) => track.stop()), []);

  const startCamera = async () => {
    setProblem(null);
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
      announce(t.cameraReady);
    } catch {
      stopCamera();
      setProblem(t.cameraDenied);
      announce(t.cameraDenied);
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

  const chooseFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
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

  return (
    <section className="step" aria-labelledby={`${inputId}-title`} data-testid={`step-${kind}`}>
      <p className="progress">{props.progress}</p>
      <h2 id={`${inputId}-title`} ref={props.headingRef} tabIndex={-1}>{props.title}</h2>
      <p className="hint">{props.hint}</p>
      {props.notice}
      {problem && <p className="problem" role="alert" data-testid="photo-problem">{problem}</p>}

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
        {camera === 'off' && preview && <img src={preview} alt={t.photoPreview(props.title)} data-testid="photo-preview" />}
      </div>

      <div className="actions">
        {camera === 'on' && (
          <>
            <button type="button" className="primary" onClick={() => void takePhoto()} data-testid="take-photo">{t.takePhoto}</button>
            <button type="button" className="secondary" onClick={stopCamera}>{t.closeCamera}</button>
          </>
        )}
        {camera === 'off' && canUseCamera() && (
          <button type="button" className={photo ? 'secondary' : 'primary'} onClick={() => void startCamera()} data-testid="open-camera">
            {photo ? t.retake : t.openCamera}
          </button>
        )}
        {camera !== 'on' && (
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
