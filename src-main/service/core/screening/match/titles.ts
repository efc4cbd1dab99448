// Titles and honorifics: words in a person's name that say what the person is (a rank, an
// office, a descent, a pilgrimage, a religious learning), not who. A title one name has and the
// other lacks is only extra; it never contradicts and never counts as a missing name part.
//
// This is the one table of them. Each entry names where it sits in a name, because several are
// also names when they sit elsewhere: "Sayyid Ali Khamenei" carries the title Sayyid, while
// "Ali Sayed" is a family name; "Ibrahim Pasha" carries a title after the name. Khan, Mir,
// Mirza, Malik, Sultan, Shah, Hafiz and Sharif are left out on purpose: they are as often
// given or family names.
//
// Sources (reference works describing each title and where it sits in a name):
// - Arabic, Persian, Urdu and Pashto honorifics: Encyclopaedia of Islam (2nd ed.) entries
//   "Sayyid", "Shaykh", "Hadjdj", "Mulla", "Mawlawi", "Mawlana", "Mufti", "Ayat Allah",
//   "Hudjdjat al-Islam"; Wikipedia "Arabic name" (section "Honorifics") and "Persian name";
//   "Pashto name" conventions in UN Security Council 1988 list entries (Maulavi, Qari, Haji).
// - Turkic and Ottoman post-nominal titles: Encyclopaedia of Islam "Beg", "Pasha", "Efendi";
//   Wikipedia "Turkish name" (Bey, Paşa, Efendi, Hanım).
// - Western and generic titles (Mr, Dr, General, President...): common English usage and the
//   words heads of state carry in the rigour/putin_names.txt test forms (elnök, prezident...).
//
// Forms are written as tokens look after normalisation: ASCII, lower case, no apostrophes.
// Names in Arabic script lose their short vowels in transliteration, so they get their own
// forms, compared with the apostrophes kept (سعيد Sa'id is "s'yd", سيد Sayyid is "syd").

export type TitlePosition = 'any' | 'leading' | 'trailing';

export interface TitleEntry {
  forms: readonly string[];
  /** Forms of the same title in Arabic script, as any-ascii writes them. */
  abjad?: readonly string[];
  position: TitlePosition;
}

export const TITLES: readonly TitleEntry[] = [
  // Generic forms of address, academic and professional titles.
  { position: 'any', forms: ['mr', 'mrs', 'ms', 'miss', 'mister', 'madam', 'mme', 'mlle', 'dr', 'doctor', 'prof', 'professor',
    'sir', 'dame', 'lord', 'lady', 'hon', 'honorable', 'honourable', 'rev', 'reverend', 'fr', 'herr', 'frau', 'sr', 'sra',
    'senor', 'senora', 'signor', 'signora', 'gospodin', 'gospozha', 'jr', 'snr'] },
  // Offices and ranks, in the languages of the lists' subjects.
  { position: 'any', forms: ['president', 'presidente', 'prasident', 'praesident', 'prezident', 'prezydent', 'predsjednik',
    'predsednik', 'presedintele', 'presiden', 'elnok', 'presidentti', 'baskan', 'premier', 'minister', 'chancellor', 'kanzler',
    'senator', 'governor', 'gen', 'general', 'col', 'colonel', 'capt', 'captain', 'lt', 'brig', 'cmdr', 'adm', 'admiral',
    'queen', 'princess', 'hrh', 'excellency'] },
  // Religious learning and office (Arabic, Persian, Urdu, Pashto), long used as titles before a name.
  { position: 'any', forms: ['sheikh', 'shaikh', 'sheik', 'shaykh', 'shaik', 'imam', 'ayatollah', 'hojatoleslam'], abjad: ['shykh', 'aytllh', 'hjtlslm'] },
  { position: 'any', forms: ['mullah', 'mulla', 'maulana', 'maulvi', 'mawlawi'], abjad: ['mwlwy', 'mwln'] },
  { position: 'leading', forms: ['molla', 'mawlana', 'moulana', 'molvi', 'moulvi', 'mawlavi', 'maulawi', 'maulavi', 'mawlvi',
    'ayatullah', 'ayatolah', 'hojjatoleslam', 'hujjatulislam', 'mufti', 'qari', 'allama', 'allamah', 'akhund', 'ustad',
    'ustadh', 'ustaz', 'pir', 'nawab'], abjad: ['ml', 'mfty'] },
  // Pilgrimage to Mecca.
  { position: 'any', forms: ['haji', 'hajji', 'hadji', 'alhaji'] },
  { position: 'leading', forms: ['hajj', 'hadj', 'alhaj', 'alhajj', 'hajjah', 'hajah', 'hajia'], abjad: ['hj', 'hjy'] },
  // Descent from the Prophet: a title before the name (Sa'id, a different name, is not one).
  { position: 'leading', forms: ['sayyid', 'sayyed', 'sayed', 'seyed', 'seyyed', 'syed', 'sayid', 'seyyid', 'sayyida',
    'sayyidah', 'seyedeh', 'seyyedeh'], abjad: ['syd', 'sydh'] },
  // Turkic and Ottoman titles, after the name.
  { position: 'trailing', forms: ['bey', 'beg', 'pasha', 'pasa', 'pacha', 'efendi', 'effendi', 'hanim', 'khanum', 'khanom',
    'sahib', 'saheb'], abjad: ['psh'] },
];

/**
 * Titles that are also family names (the Sheikh and Shaikh families of South Asia, Syed, Mirza,
 * Pasha in Turkey, Mullah, Haji): a customer's last name written so is the family name, not a
 * title (normalize.ts, normalizeSubjectName). Offices (elnök, President) never are.
 */
export const SURNAME_TITLES: ReadonlySet<string> = new Set([
  'sheikh', 'shaikh', 'sheik', 'shaykh', 'shaik', 'syed', 'sayed', 'sayyid', 'mirza', 'pasha', 'pasa', 'mullah', 'mulla',
  'haji', 'hajji', 'bey', 'beg', 'khan', 'nawab', 'pir', 'akhund', 'imam', 'qari', 'mufti',
]);

const BY_FORM = new Map<string, TitlePosition>();
const BY_ABJAD = new Map<string, TitlePosition>();
for (const t of TITLES) {
  for (const f of t.forms) BY_FORM.set(f, t.position);
  for (const f of t.abjad ?? []) BY_ABJAD.set(f, t.position);
}

/** Every Latin form, for code that must not mistake a title for something else (initials). */
export const TITLE_FORMS: ReadonlySet<string> = new Set(BY_FORM.keys());

/**
 * Where `text` may stand as a title, or null when it is never one. `pre` is the token with
 * apostrophes kept; `abjad` says it came from a script that writes no short vowels.
 */
export function titlePosition(text: string, pre: string, abjad: boolean): TitlePosition | null {
  return abjad ? (BY_ABJAD.get(pre) ?? null) : (BY_FORM.get(text) ?? null);
}
