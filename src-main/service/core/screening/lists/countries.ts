// Country names as the lists write them -> ISO 3166-1 alpha-2. OFAC writes "Korea, North",
// "Burma", "Congo, Democratic Republic of the"; the UN writes "Iran (Islamic Republic of)",
// "Democratic People's Republic of Korea"; the CSL already uses codes. Matching compares codes,
// so every spelling must land on the same one.

/** ISO 3166-1 alpha-2 and the English short name (plus XK, the user-assigned code for Kosovo). */
const ISO: ReadonlyArray<readonly [string, string]> = [
  ['AD', 'Andorra'], ['AE', 'United Arab Emirates'], ['AF', 'Afghanistan'], ['AG', 'Antigua and Barbuda'],
  ['AI', 'Anguilla'], ['AL', 'Albania'], ['AM', 'Armenia'], ['AO', 'Angola'], ['AQ', 'Antarctica'],
  ['AR', 'Argentina'], ['AS', 'American Samoa'], ['AT', 'Austria'], ['AU', 'Australia'], ['AW', 'Aruba'],
  ['AX', 'Aland Islands'], ['AZ', 'Azerbaijan'], ['BA', 'Bosnia and Herzegovina'], ['BB', 'Barbados'],
  ['BD', 'Bangladesh'], ['BE', 'Belgium'], ['BF', 'Burkina Faso'], ['BG', 'Bulgaria'], ['BH', 'Bahrain'],
  ['BI', 'Burundi'], ['BJ', 'Benin'], ['BL', 'Saint Barthelemy'], ['BM', 'Bermuda'], ['BN', 'Brunei Darussalam'],
  ['BO', 'Bolivia'], ['BQ', 'Bonaire, Sint Eustatius and Saba'], ['BR', 'Brazil'], ['BS', 'Bahamas'],
  ['BT', 'Bhutan'], ['BV', 'Bouvet Island'], ['BW', 'Botswana'], ['BY', 'Belarus'], ['BZ', 'Belize'],
  ['CA', 'Canada'], ['CC', 'Cocos (Keeling) Islands'], ['CD', 'Democratic Republic of the Congo'],
  ['CF', 'Central African Republic'], ['CG', 'Republic of the Congo'], ['CH', 'Switzerland'],
  ['CI', "Cote d'Ivoire"], ['CK', 'Cook Islands'], ['CL', 'Chile'], ['CM', 'Cameroon'], ['CN', 'China'],
  ['CO', 'Colombia'], ['CR', 'Costa Rica'], ['CU', 'Cuba'], ['CV', 'Cabo Verde'], ['CW', 'Curacao'],
  ['CX', 'Christmas Island'], ['CY', 'Cyprus'], ['CZ', 'Czechia'], ['DE', 'Germany'], ['DJ', 'Djibouti'],
  ['DK', 'Denmark'], ['DM', 'Dominica'], ['DO', 'Dominican Republic'], ['DZ', 'Algeria'], ['EC', 'Ecuador'],
  ['EE', 'Estonia'], ['EG', 'Egypt'], ['EH', 'Western Sahara'], ['ER', 'Eritrea'], ['ES', 'Spain'],
  ['ET', 'Ethiopia'], ['FI', 'Finland'], ['FJ', 'Fiji'], ['FK', 'Falkland Islands'], ['FM', 'Micronesia'],
  ['FO', 'Faroe Islands'], ['FR', 'France'], ['GA', 'Gabon'], ['GB', 'United Kingdom'], ['GD', 'Grenada'],
  ['GE', 'Georgia'], ['GF', 'French Guiana'], ['GG', 'Guernsey'], ['GH', 'Ghana'], ['GI', 'Gibraltar'],
  ['GL', 'Greenland'], ['GM', 'Gambia'], ['GN', 'Guinea'], ['GP', 'Guadeloupe'], ['GQ', 'Equatorial Guinea'],
  ['GR', 'Greece'], ['GS', 'South Georgia and the South Sandwich Islands'], ['GT', 'Guatemala'], ['GU', 'Guam'],
  ['GW', 'Guinea-Bissau'], ['GY', 'Guyana'], ['HK', 'Hong Kong'], ['HM', 'Heard Island and McDonald Islands'],
  ['HN', 'Honduras'], ['HR', 'Croatia'], ['HT', 'Haiti'], ['HU', 'Hungary'], ['ID', 'Indonesia'],
  ['IE', 'Ireland'], ['IL', 'Israel'], ['IM', 'Isle of Man'], ['IN', 'India'],
  ['IO', 'British Indian Ocean Territory'], ['IQ', 'Iraq'], ['IR', 'Iran'], ['IS', 'Iceland'], ['IT', 'Italy'],
  ['JE', 'Jersey'], ['JM', 'Jamaica'], ['JO', 'Jordan'], ['JP', 'Japan'], ['KE', 'Kenya'], ['KG', 'Kyrgyzstan'],
  ['KH', 'Cambodia'], ['KI', 'Kiribati'], ['KM', 'Comoros'], ['KN', 'Saint Kitts and Nevis'], ['KP', 'North Korea'],
  ['KR', 'South Korea'], ['KW', 'Kuwait'], ['KY', 'Cayman Islands'], ['KZ', 'Kazakhstan'], ['LA', 'Laos'],
  ['LB', 'Lebanon'], ['LC', 'Saint Lucia'], ['LI', 'Liechtenstein'], ['LK', 'Sri Lanka'], ['LR', 'Liberia'],
  ['LS', 'Lesotho'], ['LT', 'Lithuania'], ['LU', 'Luxembourg'], ['LV', 'Latvia'], ['LY', 'Libya'],
  ['MA', 'Morocco'], ['MC', 'Monaco'], ['MD', 'Moldova'], ['ME', 'Montenegro'], ['MF', 'Saint Martin'],
  ['MG', 'Madagascar'], ['MH', 'Marshall Islands'], ['MK', 'North Macedonia'], ['ML', 'Mali'], ['MM', 'Myanmar'],
  ['MN', 'Mongolia'], ['MO', 'Macao'], ['MP', 'Northern Mariana Islands'], ['MQ', 'Martinique'],
  ['MR', 'Mauritania'], ['MS', 'Montserrat'], ['MT', 'Malta'], ['MU', 'Mauritius'], ['MV', 'Maldives'],
  ['MW', 'Malawi'], ['MX', 'Mexico'], ['MY', 'Malaysia'], ['MZ', 'Mozambique'], ['NA', 'Namibia'],
  ['NC', 'New Caledonia'], ['NE', 'Niger'], ['NF', 'Norfolk Island'], ['NG', 'Nigeria'], ['NI', 'Nicaragua'],
  ['NL', 'Netherlands'], ['NO', 'Norway'], ['NP', 'Nepal'], ['NR', 'Nauru'], ['NU', 'Niue'], ['NZ', 'New Zealand'],
  ['OM', 'Oman'], ['PA', 'Panama'], ['PE', 'Peru'], ['PF', 'French Polynesia'], ['PG', 'Papua New Guinea'],
  ['PH', 'Philippines'], ['PK', 'Pakistan'], ['PL', 'Poland'], ['PM', 'Saint Pierre and Miquelon'],
  ['PN', 'Pitcairn'], ['PR', 'Puerto Rico'], ['PS', 'Palestine'], ['PT', 'Portugal'], ['PW', 'Palau'],
  ['PY', 'Paraguay'], ['QA', 'Qatar'], ['RE', 'Reunion'], ['RO', 'Romania'], ['RS', 'Serbia'], ['RU', 'Russia'],
  ['RW', 'Rwanda'], ['SA', 'Saudi Arabia'], ['SB', 'Solomon Islands'], ['SC', 'Seychelles'], ['SD', 'Sudan'],
  ['SE', 'Sweden'], ['SG', 'Singapore'], ['SH', 'Saint Helena'], ['SI', 'Slovenia'], ['SJ', 'Svalbard and Jan Mayen'],
  ['SK', 'Slovakia'], ['SL', 'Sierra Leone'], ['SM', 'San Marino'], ['SN', 'Senegal'], ['SO', 'Somalia'],
  ['SR', 'Suriname'], ['SS', 'South Sudan'], ['ST', 'Sao Tome and Principe'], ['SV', 'El Salvador'],
  ['SX', 'Sint Maarten'], ['SY', 'Syria'], ['SZ', 'Eswatini'], ['TC', 'Turks and Caicos Islands'], ['TD', 'Chad'],
  ['TF', 'French Southern Territories'], ['TG', 'Togo'], ['TH', 'Thailand'], ['TJ', 'Tajikistan'], ['TK', 'Tokelau'],
  ['TL', 'Timor-Leste'], ['TM', 'Turkmenistan'], ['TN', 'Tunisia'], ['TO', 'Tonga'], ['TR', 'Turkey'],
  ['TT', 'Trinidad and Tobago'], ['TV', 'Tuvalu'], ['TW', 'Taiwan'], ['TZ', 'Tanzania'], ['UA', 'Ukraine'],
  ['UG', 'Uganda'], ['UM', 'United States Minor Outlying Islands'], ['US', 'United States'], ['UY', 'Uruguay'],
  ['UZ', 'Uzbekistan'], ['VA', 'Holy See'], ['VC', 'Saint Vincent and the Grenadines'], ['VE', 'Venezuela'],
  ['VG', 'British Virgin Islands'], ['VI', 'United States Virgin Islands'], ['VN', 'Vietnam'], ['VU', 'Vanuatu'],
  ['WF', 'Wallis and Futuna'], ['WS', 'Samoa'], ['XK', 'Kosovo'], ['YE', 'Yemen'], ['YT', 'Mayotte'],
  ['ZA', 'South Africa'], ['ZM', 'Zambia'], ['ZW', 'Zimbabwe'],
];

/**
 * Other spellings seen in the shipped lists (OFAC, UN, CSL vessel flags) and common variants.
 * Word order and "the" do not matter (see key()), so "Korea, North" needs no entry of its own.
 */
const VARIANTS: ReadonlyArray<readonly [string, string]> = [
  ['North Korea', 'KP'], ["Democratic People's Republic of Korea", 'KP'], ['DPRK', 'KP'],
  ['South Korea', 'KR'], ['Republic of Korea', 'KR'],
  ['Burma', 'MM'], ['Iran (Islamic Republic of)', 'IR'], ['Islamic Republic of Iran', 'IR'],
  ['Syrian Arab Republic', 'SY'], ['Russian Federation', 'RU'], ['Viet Nam', 'VN'],
  ['Lao People\'s Democratic Republic', 'LA'], ['Brunei', 'BN'], ['Czech Republic', 'CZ'],
  ['Macau', 'MO'], ['China, Hong Kong Special Administrative Region', 'HK'], ['Hong Kong SAR', 'HK'],
  ['China, Macao Special Administrative Region', 'MO'], ["People's Republic of China", 'CN'], ['PRC', 'CN'],
  ['Taiwan, Province of China', 'TW'], ['Congo, Democratic Republic of the', 'CD'], ['DRC', 'CD'],
  ['Congo', 'CG'], ['Congo, Republic of the', 'CG'], ["Cote d Ivoire", 'CI'], ['Ivory Coast', 'CI'],
  ['Cape Verde', 'CV'], ['Swaziland', 'SZ'], ['East Timor', 'TL'], ['Turkiye', 'TR'], ['Türkiye', 'TR'],
  ['United Kingdom of Great Britain and Northern Ireland', 'GB'], ['Great Britain', 'GB'], ['UK', 'GB'],
  ['United States of America', 'US'], ['USA', 'US'], ['United Republic of Tanzania', 'TZ'],
  ['Republic of Moldova', 'MD'], ['Bolivia (Plurinational State of)', 'BO'],
  ['Venezuela (Bolivarian Republic of)', 'VE'], ['North Macedonia, The Republic of', 'MK'], ['Macedonia', 'MK'],
  ['The former Yugoslav Republic of Macedonia', 'MK'], ['Man, Isle of', 'IM'], ['Virgin Islands, British', 'VG'],
  ['Virgin Islands, U.S.', 'VI'], ['Saint Kitts and Nevis', 'KN'], ['St. Kitts & Nevis', 'KN'],
  ['Micronesia, Federated States of', 'FM'], ['Holy See (Vatican City State)', 'VA'], ['Vatican', 'VA'],
  ['State of Palestine', 'PS'], ['Palestinian Territories', 'PS'], ['West Bank', 'PS'], ['Gaza', 'PS'],
  ['Gaza Strip', 'PS'], ['Curaçao', 'CW'], ['Reunion', 'RE'], ['UAE', 'AE'],
  // Demonyms OFAC uses in "nationality ..." remarks.
  ['Palestinian', 'PS'],
  // OFAC "Region: ..." values that name a part of one country. Disputed regions (Jammu and
  // Kashmir, Kafia Kingi) and "Commonwealth of Independent States" stay unmapped on purpose.
  ['Region: Gaza', 'PS'], ['Region: North Gaza', 'PS'], ['Region: Northern Gaza', 'PS'], ['Region: West Bank', 'PS'],
  ['Region: Crimea', 'UA'], ['Crimea', 'UA'], ['Region: Northern Mali', 'ML'], ['Region: Russia', 'RU'],
  ['Region: China', 'CN'],
];

/** Values that mean "no country": skipped without counting as unknown. */
const NOT_A_COUNTRY = new Set(['', '0', 'na', 'none identified', 'undetermined', 'unknown', 'stateless']);

function key(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\bst\.?(?=\s)/g, 'saint')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '' && w !== 'the');
  // A bag of words: OFAC's inverted "Congo, Republic of the" and the UN's "Republic of the Congo"
  // are the same key.
  return words.sort().join(' ');
}

const CODES = new Set(ISO.map(([code]) => code));
const BY_KEY = new Map<string, string>();
for (const [code, name] of ISO) BY_KEY.set(key(name), code);
for (const [name, code] of VARIANTS) BY_KEY.set(key(name), code);

/** True for an ISO 3166-1 alpha-2 code we know (upper case). */
export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

/**
 * ISO alpha-2 for a country name, a variant, or a code; undefined when unknown or "no country".
 * Two-letter input is read as a code, never as a name.
 */
export function toCountryCode(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  // The same few hundred spellings repeat tens of thousands of times per import.
  if (MEMO.has(value)) return MEMO.get(value);
  const code = lookup(value);
  // The key is copied: the value may be a slice of a whole file (see detach in common.ts).
  if (MEMO.size < 10_000) MEMO.set((' ' + value).slice(1), code);
  return code;
}

const MEMO = new Map<string, string | undefined>();

function lookup(value: string): string | undefined {
  const v = value.trim().replace(/\.$/, '');
  if (v.length === 2) {
    const up = v.toUpperCase();
    return CODES.has(up) ? up : undefined;
  }
  if (NOT_A_COUNTRY.has(v.toLowerCase())) return undefined;
  return BY_KEY.get(key(v));
}

/** The English short name for a code (for reports; matching uses codes). */
export function countryName(code: string): string | undefined {
  return ISO.find(([c]) => c === code)?.[1];
}
