// Every word the storefront age gate shows, in one table (English), ready for translation: a
// translation is another object of the same type (Strings). Functions take the values they place.
import type { AgeGatePublicConfig } from '../../src-shared/contracts/age-gate';

type UseCase = AgeGatePublicConfig['use_case'];

export const en = {
  dialogLabel: 'Age verification',
  heading: {
    adult: 'This site is for adults only',
    alcohol: 'Are you of legal drinking age?',
    tobacco: 'Tobacco and vaping products',
    cannabis: 'Cannabis products',
    gambling: 'Gambling is for adults only',
  } satisfies Record<UseCase, string>,
  /** Shown when the merchant wrote no Custom Message. */
  defaultMessage: {
    adult: (min: number) => `This store has content for adults. Please confirm that you are ${min} or older to enter.`,
    alcohol: (min: number) => `This store sells alcohol. Please confirm that you are ${min} or older to enter.`,
    tobacco: (min: number) => `This store sells tobacco and vaping products. Please confirm that you are ${min} or older to enter.`,
    cannabis: (min: number) => `This store sells cannabis products. Please confirm that you are ${min} or older to enter.`,
    gambling: (min: number) => `This site offers gambling. Please confirm that you are ${min} or older to enter.`,
  } satisfies Record<UseCase, (min: number) => string>,
  testBanner: 'Test mode: this age check is not real and nothing is recorded against a live store.',
  logoAlt: 'Store logo',

  dobLegend: 'Your date of birth',
  day: 'Day',
  month: 'Month',
  year: 'Year',
  dayPlaceholder: 'DD',
  /** The month list's first, empty choice. */
  monthPlaceholder: 'Month…',
  yearPlaceholder: 'YYYY',
  dobMissing: 'Enter your full date of birth.',
  dobInvalid: 'That is not a valid date. Check the day, month and year.',
  dobFuture: 'The date of birth cannot be in the future.',
  continue: 'Continue',
  privacyNote: 'Your date of birth is checked once and not stored.',
  attemptsLeft: (n: number) => (n === 1 ? '1 attempt left this hour.' : `${n} attempts left this hour.`),

  selfieHeading: 'Take a selfie',
  selfieIntro: 'To confirm your age, take a selfie facing the camera in good light, with nothing covering your face.',
  openCamera: 'Open camera',
  takePhoto: 'Take photo',
  closeCamera: 'Close camera',
  chooseFile: 'Choose a photo',
  cameraPreview: 'Camera preview',
  cameraStarting: 'Starting the camera…',
  cameraReady: 'Camera ready. Press Take photo.',
  cameraDenied: 'The camera could not be used. You can choose a photo instead.',
  photoUnreadable: 'That file could not be read as a picture. Try another photo.',
  selfieNote: 'The picture is used for this check only and not stored.',

  checking: 'Checking…',
  notConclusiveHeading: 'We could not confirm your age',
  notConclusive: 'We could not confirm your age from this selfie. Try again in good light, facing the camera.',
  selfieFailed: 'We could not use this selfie. Try again in good light, facing the camera, with nothing covering your face.',
  tryAgain: 'Try again',
  underageHeading: 'Sorry, you cannot enter',
  underage: (min: number) => `You must be at least ${min} to enter this store.`,
  redirecting: 'Taking you away from this store…',
  tooManyHeading: 'Too Many Attempts',
  tooMany: 'You have reached the limit of attempts for now. Please try again later.',
  errorHeading: 'Something went wrong',
  networkError: 'The age check could not be reached. Check your connection and try again.',
  unexpected: 'The age check answered in a way this page does not understand. Try again later.',
};

export type Strings = typeof en;
export const t: Strings = en;
