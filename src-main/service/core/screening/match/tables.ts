// Small generic word tables for name normalisation. They hold vocabulary (titles, particles,
// legal forms, common transliteration variants), never names from a list or a test set: the
// matcher must behave the same on names it has never seen.
//
// Every entry is written in the form tokens take after normalisation: ASCII, lower case,
// apostrophes removed (any-ascii has already turned Cyrillic/Greek/... into Latin).

/**
 * Particles and connectives: "bin", "van", "de", "al". Kept as tokens (they still help align
 * "al-Assad"), but weigh little: "Usama bin Laden" and "Isa bin Tarif" share nothing real.
 */
export const PARTICLES: ReadonlySet<string> = new Set([
  'al', 'el', 'ul', 'ur', 'ud', 'ad', 'as', 'ash', 'an', 'ar', 'at', 'az', 'bin', 'ibn', 'ben',
  'bint', 'binti', 'bn', 'ait', 'ould', 'oulad',
  'van', 'von', 'der', 'den', 'vd', 'zu', 'vom', 'zum', 'de', 'di', 'da', 'do', 'du',
  'dos', 'das', 'des', 'del', 'della', 'dei', 'la', 'le', 'lo', 'los', 'las', 'les', 'y', 'e', 'i',
  'of', 'the', 'and', 'und', 'et', 'en', 'for', 'og', 'och', 'a', 'tul',
]);

/** Particles that only act as such for people ("Sergey Ten" is a person; "y" joins Spanish surnames). */
export const PERSON_ONLY_PARTICLES: ReadonlySet<string> = new Set([
  'bin', 'ibn', 'ben', 'bint', 'binti', 'bn', 'ait', 'ould',
]);

/**
 * Legal-form tokens, single words, mapped to a canonical code. `ambiguous` forms (two letters that
 * are also name syllables: "Ko", "Sa", "Ag") only count as legal forms outside person names.
 */
const ORG_TYPE_WORDS: ReadonlyArray<readonly [string, string, boolean?]> = [
  ['llc', 'llc'], ['lc', 'llc', true], ['ltd', 'ltd'], ['limited', 'ltd'], ['ltda', 'ltd'],
  ['inc', 'inc'], ['incorporated', 'inc'], ['corp', 'corp'], ['corporation', 'corp'],
  ['co', 'co', true], ['company', 'co'], ['cos', 'co', true], ['gmbh', 'gmbh'], ['mbh', 'gmbh'],
  ['ag', 'ag', true], ['aktiengesellschaft', 'ag'], ['gesellschaft', 'gmbh'], ['kg', 'kg', true],
  ['kgaa', 'kg'], ['kommanditgesellschaft', 'kg'], ['ohg', 'ohg', true], ['ug', 'ug', true],
  ['sa', 'sa', true], ['sas', 'sas', true], ['sarl', 'sarl'], ['srl', 'srl'], ['spa', 'spa', true],
  ['sl', 'sl', true], ['sau', 'sa', true], ['sal', 'sal', true], ['sae', 'sa', true],
  ['bv', 'bv', true], ['nv', 'nv', true], ['bvba', 'bvba'], ['sprl', 'sprl'], ['cv', 'cv', true],
  ['llp', 'llp'], ['lp', 'lp', true], ['plc', 'plc'], ['pte', 'pte', true], ['pty', 'pty', true],
  ['pvt', 'pvt', true], ['fze', 'fze'], ['fzco', 'fze'], ['fzc', 'fze'], ['fzllc', 'fze'], ['dmcc', 'dmcc'],
  ['jsc', 'jsc'], ['ojsc', 'ojsc'], ['oao', 'ojsc', true], ['cjsc', 'cjsc'], ['zao', 'cjsc', true],
  ['pjsc', 'pjsc'], ['pao', 'pjsc', true], ['ao', 'jsc', true], ['ooo', 'ooo', true], ['odo', 'ooo', true],
  ['tov', 'ooo', true], ['pat', 'pjsc', true], ['ab', 'ab', true], ['as', 'as', true], ['asa', 'as', true],
  ['oy', 'oy', true], ['oyj', 'oy'], ['aps', 'aps', true], ['kft', 'kft', true], ['zrt', 'zrt', true], ['doo', 'doo', true],
  ['dd', 'dd', true], ['sro', 'sro', true], ['spzoo', 'spzoo'], ['se', 'se', true], ['bhd', 'bhd'],
  ['sdn', 'sdn'], ['tbk', 'tbk', true], ['ehf', 'ehf', true], ['hf', 'ehf', true], ['ulc', 'ulc'],
  ['pllc', 'llc'], ['lllp', 'llp'], ['gie', 'gie'], ['eood', 'ood', true], ['ood', 'ood', true], ['ead', 'ad', true],
  ['sapi', 'sa', true], ['cia', 'co', true], ['sociedad', 'sa', true],
];

export interface OrgTypeWord {
  code: string;
  /** True for short forms that are also ordinary name syllables. */
  ambiguous: boolean;
}

export const ORG_TYPES: ReadonlyMap<string, OrgTypeWord> = new Map(
  ORG_TYPE_WORDS.map(([word, code, ambiguous]) => [word, { code, ambiguous: ambiguous === true }]),
);

/**
 * Multi-word legal forms (after transliteration), longest first within a starting word.
 * "Sp. z o.o." tokenises to sp z oo; Russian forms come out of any-ascii as shown.
 */
export const ORG_TYPE_PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['limited liability company', 'llc'],
  ['limited liability partnership', 'llp'],
  ['limited partnership', 'lp'],
  ['public limited company', 'plc'],
  ['private limited company', 'ltd'],
  ['public company limited', 'plc'],
  ['open joint stock company', 'ojsc'],
  ['closed joint stock company', 'cjsc'],
  ['public joint stock company', 'pjsc'],
  ['joint stock company', 'jsc'],
  ['joint stock', 'jsc'],
  ['free zone establishment', 'fze'],
  ['free zone company', 'fze'],
  ['gesellschaft mit beschrankter haftung', 'gmbh'],
  ['societe anonyme', 'sa'],
  ['societe a responsabilite limitee', 'sarl'],
  ['societe par actions simplifiee', 'sas'],
  ['societatea cu raspundere limitata', 'srl'],
  ['societa a responsabilita limitata', 'srl'],
  ['societa per azioni', 'spa'],
  ['sociedad anonima', 'sa'],
  ['sociedad limitada', 'sl'],
  ['sociedade anonima', 'sa'],
  ['sociedad de responsabilidad limitada', 'srl'],
  ['s de rl', 'srl'],
  ['sa de cv', 'sa'],
  ['s a de c v', 'sa'],
  ['de cv', 'cv'],
  ['naamloze vennootschap', 'nv'],
  ['besloten vennootschap', 'bv'],
  ['sp z oo', 'spzoo'],
  ['spolka z ograniczona odpowiedzialnoscia', 'spzoo'],
  ['spolka akcyjna', 'sa'],
  ['a s', 'as'],
  ['obshchestvo s ogranichennoy otvetstvennostyu', 'ooo'],
  ['obshchestvo s ogranichennoi otvetstvennostiu', 'ooo'],
  ['otkrytoe aktsionernoe obshchestvo', 'ojsc'],
  ['zakrytoe aktsionernoe obshchestvo', 'cjsc'],
  ['publichnoe aktsionernoe obshchestvo', 'pjsc'],
  ['aktsionernoe obshchestvo', 'jsc'],
  ['aktsionernoye obshchestvo', 'jsc'],
  ['tovarystvo z obmezhenoyu vidpovidalnistyu', 'ooo'],
  ['pryvatne aktsionerne tovarystvo', 'jsc'],
  ['aktsionerne tovarystvo', 'jsc'],
  ['co ltd', 'ltd'],
  ['pty ltd', 'ltd'],
  ['pte ltd', 'ltd'],
  ['pvt ltd', 'ltd'],
  ['sdn bhd', 'bhd'],
];

/**
 * Names written short without vowels, as a word of their own: Md. and Mhd (Muhammad, from
 * Bangladesh to Syria) are the name, not two initials.
 */
export const NAME_ABBREVIATIONS: ReadonlySet<string> = new Set(['md', 'mhd']);

/**
 * Transliteration variants of the same name, one class per line; the first spelling is the
 * class key. Modest on purpose: edit distance and phonetics already absorb most variation;
 * these are the common cases where they do not (vowel-initial shifts, ks/x, Korean surnames).
 */
export const NAME_VARIANTS: ReadonlyArray<readonly string[]> = [
  ['muhammad', 'mohammed', 'mohammad', 'muhammed', 'mohamed', 'mohamad', 'muhamed', 'muhamad',
    'mohamud', 'mohammod', 'mouhamed', 'mehmet', 'mehmed', 'mohd', 'muhamadu', 'magomed',
    'mukhammad', 'mukhammed', 'maxamed', ...NAME_ABBREVIATIONS],
  ['ahmad', 'ahmed', 'ahmet', 'akhmad', 'akhmed', 'achmad', 'ahmat'],
  ['hasan', 'hassan', 'hasson', 'khasan'],
  ['husayn', 'hussein', 'hussain', 'husain', 'husein', 'hossein', 'hosein', 'huseyin', 'husseyn'],
  ['usama', 'osama', 'usamah', 'osamah'],
  ['abdullah', 'abdallah', 'abdulla', 'abdellah', 'abdollah', 'abdalla', 'abdillah', 'abdulah'],
  ['abd', 'abdul', 'abdel', 'abdal', 'abdol', 'abdoul', 'abdil', 'cabdul', 'cabd',
    'bd', 'bdl'], // bd, bdl: Arabic-script spellings without vowels as any-ascii renders them
  ['yusuf', 'yousef', 'youssef', 'yusef', 'yousuf', 'yussuf', 'yousif', 'yosef'],
  ['umar', 'omar', 'omer', 'umer'],
  ['uthman', 'othman', 'osman', 'usman', 'othmane'],
  ['ali', 'aly'],
  ['ibrahim', 'ebrahim', 'ibragim', 'ibraheem', 'ibrahima'],
  ['mahmud', 'mahmoud', 'mahmood', 'makhmud'],
  ['mustafa', 'mostafa', 'moustafa', 'mustapha', 'mostapha'],
  ['khalid', 'khaled', 'khaleed'],
  ['yahya', 'yahia', 'yehia', 'yahiya'],
  ['said', 'saeed', 'saiid', 'saied'],
  ['saud', 'saoud', 'suud'],
  ['abu', 'abou', 'abo', 'bw', 'bu'],
  ['bin', 'ben', 'ibn', 'bn'],
  ['al', 'el', 'ul'],
  ['aleksandr', 'alexander', 'aleksander', 'alexandr', 'oleksandr', 'alexandros', 'aleksandar',
    'alexandre', 'alessandro', 'alejandro', 'aliaksandr', 'aleksandras'],
  ['aleksei', 'alexei', 'alexey', 'aleksey', 'oleksiy', 'oleksii', 'aliaksei', 'alexej'],
  ['sergei', 'sergey', 'serguei', 'sergiy', 'serhiy', 'serhii', 'sergej', 'siarhei', 'sergii'],
  ['yuri', 'yury', 'yuriy', 'iurii', 'iury', 'jurij', 'juri', 'yurii', 'yurij', 'iouri', 'youri'],
  ['dmitry', 'dmitri', 'dmitriy', 'dimitri', 'dmytro', 'dzmitry', 'dmitrii', 'dmitrij'],
  ['vladimir', 'wladimir', 'volodymyr', 'uladzimir', 'vladimer', 'volodimir', 'wladimier',
    'vladimiras', 'vladimirs'],
  ['nikolai', 'nikolay', 'mykola', 'nicolai', 'nikolaj', 'mikalai', 'nikolaos'],
  ['andrei', 'andrey', 'andriy', 'andrii', 'andrej', 'andrzej', 'andrius'],
  ['mikhail', 'michail', 'mykhailo', 'mikhailo'],
  ['evgeny', 'yevgeny', 'evgeni', 'yevgeniy', 'ievgen', 'yevhen', 'evgenii', 'evgeniy', 'jewgeni'],
  ['pyotr', 'petr', 'petro', 'piotr'],
  ['grigory', 'grigori', 'grigoriy', 'hryhoriy', 'grigorii'],
  ['igor', 'ihor'],
  ['oleg', 'oleh'],
  ['yekaterina', 'ekaterina', 'katerina', 'kateryna'],
  ['tatiana', 'tatyana', 'tetiana', 'tatjana'],
  ['natalia', 'natalya', 'nataliya', 'natalija'],
  ['elena', 'yelena', 'olena', 'jelena'],
  ['yevgenia', 'evgenia', 'yevgeniya'],
  ['valery', 'valeriy', 'valerii', 'valeri'],
  ['vasily', 'vasiliy', 'vasyl', 'vasili', 'wassili'],
  ['viktor', 'victor', 'wiktor'],
  ['kim', 'gim'],
  ['lee', 'yi', 'rhee', 'ri', 'rhie', 'li', 'i'],
  ['park', 'pak', 'bak', 'bag'],
  ['choi', 'choe', 'chwe'],
  ['jung', 'jeong', 'chung', 'chong'],
  ['kang', 'gang'],
  ['cho', 'jo'],
  ['yoon', 'yun'],
  ['jang', 'chang'],
  ['lim', 'im', 'rim'],
  ['shin', 'sin'],
  ['han', 'hahn'],
];

/**
 * The same classes as written in Arabic script, which records no short vowels: any-ascii gives
 * محمد as "mhmd", محمود as "mhmwd". Keyed only for tokens of that script, so Muhammad written
 * there is told apart from Mahmud as it is in Latin letters.
 */
export const ABJAD_NAME_VARIANTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['muhammad', ['mhmd']], ['mahmud', ['mhmwd']], ['ahmad', ['hmd']], ['hasan', ['hsn']], ['husayn', ['hsyn']],
  ['ali', ['ly']], ['umar', ['mr']], ['uthman', ['thmn']], ['yusuf', ['ywsf']], ['ibrahim', ['brhym']],
  ['mustafa', ['mstfa', 'mstf']], ['khalid', ['khld']], ['yahya', ['yhya']], ['usama', ['smh']], ['abdullah', ['bdllh']],
  ['said', ['syd']], ['saud', ['swd']],
];

/** Patronymic endings across transliteration schemes: Vladimirovich, -ovitch, -owitsch, -ovič... */
export const PATRONYMIC_SUFFIXES: readonly string[] = [
  'ovich', 'evich', 'ovych', 'evych', 'ovitch', 'evitch', 'owitsch', 'ewitsch', 'ovitsch',
  'owicz', 'ewicz', 'ovitj', 'evitj', 'ovitsj', 'owitsj', 'ovitx', 'ovici', 'evici', 'ovics',
  'evics', 'ovits', 'ovic', 'evic', 'avich', 'avici', 'ovna', 'evna', 'ivna',
];

/** English number words, including the common misspelling "fourty". */
export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ['zero', 0], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6],
  ['seven', 7], ['eight', 8], ['nine', 9], ['ten', 10], ['eleven', 11], ['twelve', 12],
  ['thirteen', 13], ['fourteen', 14], ['fifteen', 15], ['sixteen', 16], ['seventeen', 17],
  ['eighteen', 18], ['nineteen', 19], ['twenty', 20], ['thirty', 30], ['forty', 40],
  ['fourty', 40], ['fifty', 50], ['sixty', 60], ['seventy', 70], ['eighty', 80], ['ninety', 90],
  ['first', 1], ['second', 2], ['third', 3], ['fourth', 4], ['fifth', 5], ['sixth', 6],
  ['seventh', 7], ['eighth', 8], ['ninth', 9], ['tenth', 10],
]);
export const NUMBER_SCALES: ReadonlyMap<string, number> = new Map([
  ['hundred', 100], ['thousand', 1000],
]);

/**
 * Abbreviations in organisation names, mapped to the word they stand for. Only forms that are
 * not also ordinary words or name syllables ("Int", "Min" are left out).
 */
export const ORG_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['intl', 'international'], ['natl', 'national'], ['assn', 'association'], ['assoc', 'association'],
  ['dept', 'department'], ['univ', 'university'], ['mfg', 'manufacturing'], ['svcs', 'services'],
  ['bros', 'brothers'], ['hldgs', 'holdings'], ['hldg', 'holding'], ['grp', 'group'],
  ['inds', 'industries'], ['mgmt', 'management'], ['devt', 'development'], ['engg', 'engineering'],
  ['govt', 'government'], ['ctr', 'center'], ['centre', 'center'], ['organisation', 'organization'],
]);
