// The batch CSV, written once: the columns an import reads, the columns a saved result adds,
// what each means (for the help text), and the template. A saved result is itself a valid
// import: its output columns become the next run's previous result.

export interface ColumnDoc {
  name: string;
  required?: boolean;
  help: string;
}

export const INPUT_COLUMNS: readonly ColumnDoc[] = [
  { name: 'client_reference_id', help: 'Your own id for the customer; comes back unchanged. Up to 200 characters.' },
  { name: 'first_name', required: true, help: 'Given name.' },
  { name: 'middle_name', help: 'Middle names, if any.' },
  { name: 'last_name', required: true, help: 'Family name.' },
  {
    name: 'date_of_birth',
    help: 'YYYY-MM-DD; DD/MM/YYYY, DD.MM.YYYY or DD-MM-YYYY when you choose to read the file’s dates day first. Confirms or rules out a match.',
  },
  { name: 'gender', help: 'e.g. female, male. Confirms or rules out a match.' },
  { name: 'country', help: 'Two-letter country code (ISO 3166-1 alpha-2), e.g. DE.' },
  { name: 'previous_screening_id', help: 'The id of the last screening of this customer.' },
  { name: 'previous_risk_score', help: 'The last risk score, 0–100. With previous_risk_level, tells what changed.' },
  { name: 'previous_risk_level', help: 'low, medium or high.' },
  { name: 'previous_flags', help: 'The last flags, separated by ; (e.g. SANCTIONS_STRONG_MATCH).' },
  {
    name: 'cleared_entities',
    help: 'Matches cleared as false positives, separated by ; as entity_id@record_hash. They stay cleared while the list record is unchanged.',
  },
  {
    name: 'previous_disposition',
    help: 'Your last review of the customer (cleared_false_positive, escalated, needs_info or awaiting_approval), shown beside the new result.',
  },
];

export const OUTPUT_COLUMNS: readonly ColumnDoc[] = [
  { name: 'screening_id', help: 'The id of this screening.' },
  { name: 'risk_score', help: 'The new risk score, 0–100.' },
  { name: 'risk_level', help: 'low, medium or high.' },
  { name: 'risk_decision', help: 'clear, review or high_risk_review.' },
  { name: 'risk_change', help: 'risk_increased, risk_decreased, risk_unchanged or unknown_without_prior_result.' },
  { name: 'flags', help: 'The new flags, separated by ;.' },
  { name: 'top_match_entity_id', help: 'The best match’s list record.' },
  { name: 'top_match_name', help: 'Its listed name.' },
  { name: 'top_match_list', help: 'sanctions, pep, rca or wanted.' },
  { name: 'top_match_score', help: 'Its match score, 0–100.' },
  { name: 'top_match_explanation', help: 'Which alias matched, how the name tokens lined up, and what moved the score.' },
  {
    name: 'disposition',
    help: 'Your review: cleared_false_positive, escalated or needs_info; awaiting_approval for a cleared strong sanctions match that a second person has not approved yet (it does not count as cleared).',
  },
  { name: 'disposition_entities', help: 'The matches the disposition covers, as entity_id@record_hash separated by ;.' },
  { name: 'disposition_reason', help: 'Why a strong sanctions match was cleared: different_dob, different_nationality, different_person_other_identifiers, name_only_common_name, list_record_outdated or other.' },
  { name: 'disposition_note', help: 'The note written with the disposition. It exists only in this file.' },
  { name: 'decided_by', help: 'The e-mail of the analyst who set the disposition.' },
  { name: 'decided_at', help: 'When the service recorded it (ISO 8601, UTC).' },
  { name: 'approved_by', help: 'With four-eyes: the owner or admin who approved clearing a strong sanctions match.' },
  { name: 'approved_at', help: 'When they approved it (ISO 8601, UTC).' },
  {
    name: 'lists_screened',
    help: 'The lists the row was screened against, separated by ;: source, publication date, the first 12 characters of the file’s SHA-256, and “stale” when older than your organisation’s window.',
  },
  { name: 'lists_as_of', help: 'When the run started: the lists as loaded then (ISO 8601, UTC).' },
  { name: 'row_error', help: 'Why the service could not screen the row, if it could not.' },
];

export const INPUT_NAMES = INPUT_COLUMNS.map((c) => c.name);
export const OUTPUT_NAMES = OUTPUT_COLUMNS.map((c) => c.name);
export const REQUIRED_COLUMNS = INPUT_COLUMNS.filter((c) => c.required).map((c) => c.name);

/** How a saved result is read again: these output columns feed the next run. */
export const CARRIED_OVER =
  'A saved result can be imported as it is: screening_id, risk_score, risk_level and flags become the previous result, ' +
  'disposition becomes previous_disposition, and the matches of rows marked cleared_false_positive are added to cleared_entities.';

const TEMPLATE_ROWS: readonly (readonly string[])[] = [
  ['cust-0001', 'Maren', '', 'Holloway', '1984-02-17', 'female', 'GB', 'scr_example1', '0', 'low', '', '', ''],
  ['cust-0002', 'Tobias', 'J', 'Quellmann', '1979-11-03', 'male', 'DE', '', '', '', '', '', ''],
];

export function templateCsv(): string {
  return [INPUT_NAMES, ...TEMPLATE_ROWS].map((r) => r.join(',')).join('\r\n') + '\r\n';
}
