// The screening form's values, their checks and the request built from them. The same rules as
// the service's contract, so most mistakes are caught before anything is sent; the service
// checks again and its answer is mapped back onto the fields here.
import { LIST_KINDS, type ListKind, type ScreenRequest } from '../../../../src-shared/contracts/screening';
import { birthDateProblem, EARLIEST_BIRTH_DATE, localToday } from '../../../../src-shared/dates';

export interface Draft {
  first_name: string;
  middle_name: string;
  last_name: string;
  date_of_birth: string;
  country: string;
  gender: '' | 'female' | 'male';
  client_reference_id: string;
  /** Loaded kinds the analyst unticked; every loaded kind is checked unless it is here. */
  excluded: ListKind[];
}

export type DraftField = Exclude<keyof Draft, 'excluded'>;
export type ErrorField = DraftField | 'lists';
export type FieldErrors = Partial<Record<ErrorField, string>>;

export const EMPTY_DRAFT: Draft = {
  first_name: '', middle_name: '', last_name: '', date_of_birth: '', country: '', gender: '', client_reference_id: '', excluded: [],
};

export const FIELD_ORDER: readonly ErrorField[] = [
  'first_name', 'middle_name', 'last_name', 'date_of_birth', 'country', 'gender', 'lists', 'client_reference_id',
];

const LABEL: Record<ErrorField, string> = {
  first_name: 'First name',
  middle_name: 'Middle name',
  last_name: 'Last name',
  date_of_birth: 'Date of birth',
  country: 'Country',
  gender: 'Gender',
  client_reference_id: 'Client reference',
  lists: 'Lists',
};

/** The date picker's lower bound (the upper is the analyst's today): the contract's earliest date of birth. */
export const MIN_DOB = EARLIEST_BIRTH_DATE;

/** The checked kinds: loaded and not unticked, in the contract's order. */
export function chosenKinds(draft: Draft, loaded: readonly string[]): ListKind[] {
  return LIST_KINDS.filter((k) => loaded.includes(k) && !draft.excluded.includes(k));
}

function messageFor(field: ErrorField, issue: string): string {
  const missing = /required|too short|too_small/i.test(issue);
  switch (field) {
    case 'first_name':
    case 'last_name':
      return missing ? `Enter the ${LABEL[field].toLowerCase()}.` : `${LABEL[field]}: ${issue}.`;
    case 'date_of_birth':
      return `Enter a real date between ${MIN_DOB} and today, or leave it empty.`;
    case 'country':
      return 'Use a two-letter country code, such as GB or RU, or leave it empty.';
    case 'lists':
      return 'Choose at least one list.';
    default:
      return `${LABEL[field]}: ${issue}.`;
  }
}

/** Checks the draft; an empty object means it can be sent. */
export function validate(draft: Draft, loaded: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  if (!draft.first_name.trim()) errors.first_name = messageFor('first_name', 'required');
  if (!draft.last_name.trim()) errors.last_name = messageFor('last_name', 'required');
  const dob = draft.date_of_birth;
  if (dob && birthDateProblem(dob, localToday()) !== null) {
    errors.date_of_birth = messageFor('date_of_birth', 'invalid');
  }
  const country = draft.country.trim();
  if (country && !/^[A-Za-z]{2}$/.test(country)) errors.country = messageFor('country', 'invalid');
  if (loaded.length > 0 && chosenKinds(draft, loaded).length === 0) errors.lists = messageFor('lists', 'required');
  return errors;
}

export function toRequest(draft: Draft, loaded: readonly string[]): ScreenRequest {
  const middle = draft.middle_name.trim();
  const country = draft.country.trim().toUpperCase();
  const reference = draft.client_reference_id.trim();
  return {
    ...(reference ? { client_reference_id: reference } : {}),
    subject: {
      type: 'individual',
      first_name: draft.first_name.trim(),
      last_name: draft.last_name.trim(),
      ...(middle ? { middle_name: middle } : {}),
      ...(draft.date_of_birth ? { date_of_birth: draft.date_of_birth } : {}),
      ...(draft.gender ? { gender: draft.gender } : {}),
      ...(country ? { country } : {}),
    },
    screening: { lists: chosenKinds(draft, loaded) },
  };
}

const SERVICE_FIELD: Record<string, ErrorField> = {
  'subject.first_name': 'first_name',
  'subject.middle_name': 'middle_name',
  'subject.last_name': 'last_name',
  'subject.date_of_birth': 'date_of_birth',
  'subject.country': 'country',
  'subject.gender': 'gender',
  'screening.lists': 'lists',
  client_reference_id: 'client_reference_id',
};

/** "Invalid field 'subject.last_name': required" → { last_name: 'Enter the last name.' }. */
export function fieldErrorFromService(message: string): FieldErrors | null {
  const m = /^Invalid field '([^']+)': (.+)$/.exec(message);
  const field = m ? SERVICE_FIELD[m[1]!] : undefined;
  if (!m || !field) return null;
  return { [field]: messageFor(field, m[2]!) };
}
