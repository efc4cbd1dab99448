// Every word the hosted page shows, in one table (English), ready for translation: a translation
// is another object of the same type (Strings). Functions take the values they place.
export const en = {
  documentTitle: 'Verification',
  defaultTitle: {
    human: 'Verify it is you',
    age: 'Confirm your age',
    identity: 'Verify your identity',
    compliance: 'Verify your identity',
  },
  fallbackTitle: 'Verification',
  loading: 'Loading…',
  testBanner: 'Test mode: this is not a real verification and nothing is charged.',
  stepOf: (n: number, total: number) => `Step ${n} of ${total}`,

  intro: {
    human: 'Take a selfie to show that you are a real person.',
    age: 'Enter your date of birth and take a selfie to confirm your age.',
    identity: 'Take a selfie, then a photo of your ID document.',
    compliance: 'Take a selfie, then a photo of your ID document.',
  },

  dobTitle: 'Your date of birth',
  dobLabel: 'Date of birth',
  dobHint: (minAge: number) => `You must be at least ${minAge} years old.`,
  dobMissing: 'Enter your date of birth.',
  dobFuture: 'The date of birth cannot be in the future.',

  selfieTitle: 'Take a selfie',
  selfieHint: 'Face the camera in good light, with nothing covering your face.',
  idFrontTitle: 'Photo of your ID document',
  idFrontHint: 'The front of your passport, ID card or driving licence, flat and fully in the picture.',
  idBackTitle: 'Back of your ID document (optional)',
  idBackHint: 'If your document has a back with printed details, add a photo of it. Otherwise skip this step.',
  idRequiredNote: 'Your selfie was not enough to confirm your age. Add a photo of your ID document to finish.',

  openCamera: 'Open camera',
  takePhoto: 'Take photo',
  closeCamera: 'Close camera',
  chooseFile: 'Choose a photo',
  retake: 'Take another',
  usePhoto: 'Use this photo',
  skip: 'Skip',
  next: 'Continue',
  back: 'Back',
  submit: 'Submit',
  cameraPreview: 'Camera preview',
  photoPreview: (what: string) => `Your photo: ${what}`,
  cameraStarting: 'Starting the camera…',
  cameraReady: 'Camera ready. Press Take photo.',
  cameraDenied: 'The camera could not be used. You can choose a photo instead.',
  photoReady: 'Photo ready. Check it, then continue.',
  photoUnreadable: 'That file could not be read as a picture. Try another photo.',
  photoMissing: 'Add a photo first.',

  // The active liveness challenge (human product, camera open, the browser can record video).
  challengeReady: 'Camera ready. Read the instructions, then press Start recording.',
  challengeSteps: [
    'Hold the phone at eye level with your whole face inside the frame, and only you in view.',
    'Press Start recording and look at the camera.',
    'Then turn your head slowly to one side and back, as far as is comfortable (about halfway to your shoulder).',
  ],
  challengeBlink: 'If you cannot turn your head, close your eyes for a moment and open them again instead.',
  challengeLength: (seconds: number) => `The recording takes ${seconds} seconds and stops by itself.`,
  startRecording: 'Start recording',
  recordingLabel: 'Recording progress',
  secondsLeft: (n: number) => (n === 1 ? '1 second left' : `${n} seconds left`),
  cueLook: 'Look at the camera',
  cueTurn: 'Turn your head slowly to one side…',
  cueBack: '…and back to the camera',
  clipReady: 'Video recorded and the camera is off. Check it, then submit.',
  clipPreview: 'Your recorded video',
  clipFailed: 'The recording did not work. Try again.',
  cameraDeniedVideo: 'The camera could not be used. This check needs a short video from your camera: allow the camera for this page and try again.',
  // The service requires the recorded challenge and this browser cannot record video (no MediaRecorder).
  videoUnsupported: 'This browser cannot record video, and this check needs a short video of you turning your head.',
  videoUnsupportedHint: 'Open this link in an up-to-date browser (Chrome, Safari, Firefox or Edge) to continue.',
  // Why the service did not accept a recorded challenge, by the rule it names (the person can fix each).
  challengeWhy: {
    head_turn: 'We could not see your head turn. Turn your head slowly to one side and back, or close your eyes for a moment. A photo or a screen held up to the camera cannot do this.',
    blink: 'We could not see your head turn. Turn your head slowly to one side and back, or close your eyes for a moment. A photo or a screen held up to the camera cannot do this.',
    same_face: 'The face changed during the recording: a photo or a screen was shown, or someone else came into view. Record only yourself.',
    face_in_view: 'Your face was out of view for much of the recording. Keep your whole face inside the frame.',
    one_face: 'More than one face was in view. Make sure only you are in the picture.',
  } as Record<string, string>,
  challengeRetryTitle: 'Please record again',
  attemptsLeft: (n: number) => (n === 1 ? 'You can record one more time.' : `You can record ${n} more times.`),
  recordAgain: 'Record again',

  checking: 'Checking…',
  checkingHint: 'This can take a few seconds. Keep this page open.',
  passedTitle: 'Verified',
  failedTitle: 'Not verified',
  redirecting: 'Taking you back…',
  continueNow: 'Continue now',
  closeHint: 'You can close this page.',

  flowClosedTitle: 'This verification is not available right now',
  flowClosedHint: 'Please try again later, or ask whoever gave you this link.',
  closedTitle: 'This link can no longer be used',
  notFoundTitle: 'This link is not valid',
  closedHint: 'Ask whoever sent it for a new verification link.',
  closedBecause: {
    completed: 'This verification has already been completed.',
    expired: 'This link has expired.',
    revoked: 'This link was cancelled.',
  } as Record<string, string>,
  errorTitle: 'Something went wrong',
  networkError: 'The service could not be reached. Check your connection and try again.',
  unexpected: 'The service answered in a way this page does not understand. Try again later.',
  tryAgain: 'Try again',
  fixAndRetry: 'Fix this and send again.',

  fields: {
    selfie_b64: 'Selfie',
    id_front_b64: 'Front of ID document',
    id_back_b64: 'Back of ID document',
    date_of_birth: 'Date of birth',
    body: 'Request',
  } as Record<string, string>,
  issues: {
    missing: 'missing',
    out_of_range: 'not a possible date',
    video_required: 'a short video is needed, not a photo',
  } as Record<string, string>,
};

export type Strings = typeof en;
export const t: Strings = en;
