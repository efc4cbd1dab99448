import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD, compareNames, createPairMemo, scoreNamePair, startPairMemo, tokenSignature, type CompareOptions } from './compare';
import { normalizeName, type NameSchema } from './normalize';

function compare(a: string, b: string, schema: NameSchema = 'person', opts?: CompareOptions) {
  return compareNames(normalizeName(a, schema), normalizeName(b, schema), opts);
}
const score = (a: string, b: string, schema: NameSchema = 'person', opts?: CompareOptions): number =>
  compare(a, b, schema, opts).score;

describe('compareNames: people', () => {
  it('scores identical names 1 and unrelated names low', () => {
    expect(score('Vladimir Putin', 'Vladimir Putin')).toBe(1);
    expect(score('Angelo Cruz', 'Angela Merkel')).toBeLessThan(0.5);
    expect(score('Pol Pot', 'Paul Murphy')).toBeLessThan(0.5);
  });

  it('ignores order and reads "LAST, First"', () => {
    expect(score('PUTIN, Vladimir', 'Vladimir Putin')).toBe(1);
    expect(score('Putin Vladimir Vladimirovich', 'Vladimir Vladimirovich PUTIN')).toBe(1);
  });

  it('ignores accents and case', () => {
    expect(score('José Pérez', 'JOSE PEREZ')).toBe(1);
    expect(score('Recep Tayyip Erdoğan', 'Recep Tayyip Erdogan')).toBe(1);
  });

  it('matches Cyrillic, Arabic, CJK and Hangul spellings against Latin ones', () => {
    expect(score('Владимир Путин', 'Vladimir Putin')).toBeGreaterThanOrEqual(0.95);
    expect(score('Путин, Владимир Владимирович', 'Vladimir Vladimirovich PUTIN')).toBe(1);
    expect(score('محمد علي', 'Mohamed Ali')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(score('أسامة بن لادن', 'Osama bin Laden')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(score('عبد الله', 'Abdullah')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    // A reading across scripts whose romanisation is a guess is close, never the same spelling.
    expect(score('习近平', 'Xi Jinping')).toBeGreaterThanOrEqual(0.9);
    expect(score('习近平', 'Xi Jinping')).toBeLessThan(1);
    expect(score('김정은', 'Kim Jong Un')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    // ... but not two different Arabic names.
    expect(score('باراك أوباما', 'محمد بن سلمان آل سعود')).toBeLessThan(0.3);
  });

  it('reads a Baltic nominative ending as the same name', () => {
    expect(scoreNamePair('Person', 'Vladimiras Putinas', 'Vladimir Putin')).toBeGreaterThan(0.9);
    expect(scoreNamePair('Person', 'Vladimirs Putins', 'Vladimir Putin')).toBeGreaterThan(0.9);
    // Not any ending: "Putino" is not an inflection of Putin, and short stems stay strict.
    expect(scoreNamePair('Person', 'Ivan Putinov', 'Ivan Putin')).toBeLessThan(scoreNamePair('Person', 'Ivan Putinas', 'Ivan Putin'));
  });

  it('compares transcriptions in kana and Han by their loose skeleton, and only those', () => {
    expect(scoreNamePair('Person', 'ウラジーミル・プーチン', 'Vladimir Putin')).toBeGreaterThan(0.8);
    expect(scoreNamePair('Person', '弗拉基米尔·普京', 'Vladimir Putin')).toBeGreaterThan(0.8);
    expect(scoreNamePair('Person', '翼 零 斎藤', 'LI, Jiadong')).toBeLessThan(0.7);
  });

  it('reads Sayyid, Haji, Mullah before a name and Pasha after it as titles, and the same words elsewhere as names', () => {
    const kinds = (raw: string) => normalizeName(raw, 'person').tokens.map((t) => `${t.text}:${t.kind}`);
    expect(kinds('Sayyid Ali Khamenei')).toContain('sayyid:honorific');
    expect(kinds('Haji Mullah Abdul Ghani')).toEqual(expect.arrayContaining(['haji:honorific', 'mullah:honorific']));
    expect(kinds('Ibrahim Pasha')).toContain('pasha:honorific');
    expect(kinds('Ali Sayed')).toContain('sayed:family');
    expect(kinds('Pasha Ivanov')).toContain('pasha:given');
    // Arabic script: سيد (Sayyid) is a title before a name, سعيد (Sa'id) a name.
    expect(normalizeName('سيد علي', 'person').tokens[0]!.kind).toBe('honorific');
    expect(normalizeName('سعيد علي', 'person').tokens[0]!.kind).toBe('given');
    // A Latin abbreviation is not looked for in Arabic script: اسرا is Asra, not "Sr.".
    expect(normalizeName('اسرا زمانی', 'person').tokens[0]!.kind).not.toBe('honorific');
  });

  it('gives a short form its formal name, and no other', () => {
    expect(score('Ted Doe', 'Theodore Doe')).toBeGreaterThanOrEqual(0.85);
    expect(score('Bill Clinton', 'William Clinton')).toBeGreaterThanOrEqual(0.85);
    expect(score('Sasha Petrov', 'Aleksandr Petrov')).toBeGreaterThanOrEqual(0.85);
    expect(score('Ben Netanyahu', 'Benjamin Netanyahu')).toBeGreaterThanOrEqual(0.85);
    expect(score('Ted Doe', 'Thomas Doe')).toBeLessThan(DEFAULT_THRESHOLD);
    const pair = compareNames(normalizeName('Ted Doe', 'person'), normalizeName('Theodore Doe', 'person'));
    expect(pair.alignment[0]).toMatchObject({ query: 'ted', candidate: 'theodore', method: 'nickname' });
  });

  it('tells Muhammad from Mahmud in Arabic script as in Latin letters', () => {
    expect(score('محمد اشتری', 'ASHTARI, Mahmud')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('محمد اشتری', 'ASHTARI, Muhammad')).toBeGreaterThanOrEqual(0.85);
  });

  it('two numbers that differ are a possible match, a number one side only has is another name', () => {
    const org = (a: string, b: string) => scoreNamePair('Company', a, b);
    const series = org('Goldman Sachs Mortgage Loan Trust 2004-1', 'Goldman Sachs Mortgage Loan Trust 2004-2');
    expect(series).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(series).toBeLessThan(0.85);
    expect(org('Bowne Global Solutions, Inc.', 'Bowne Global Solutions II, Inc.')).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('marks a name exact only when every part is spelled the same, with no guessed reading or loose join', () => {
    const exact = (a: string, b: string) => compareNames(normalizeName(a, 'person'), normalizeName(b, 'person')).exact;
    expect(exact('Vladimir Putin', 'PUTIN, Vladimir Vladimirovich')).toBe(true);
    expect(exact('Jin Ping Xi', 'Xi Jinping')).toBe(true);
    expect(exact('Haji Bando', 'BANDO, Haji')).toBe(true);
    expect(exact('Vladimir Putn', 'PUTIN, Vladimir')).toBe(false);
    expect(exact('김정은', 'Kim Jong Un')).toBe(false);
    expect(exact('Putin', 'PUTIN, Vladimir')).toBe(false);
    expect(exact('Leonard Orr', 'Leonardo')).toBe(false);
  });

  it('reads a Mandarin name in Wade-Giles as its Pinyin spelling, only when one side is Wade-Giles', () => {
    expect(score('Mao Zedong', 'Mao Tse-tung')).toBeGreaterThanOrEqual(0.85);
    expect(score('Zhou Enlai', 'Chou En-lai')).toBeGreaterThanOrEqual(0.85);
    expect(score('Deng Xiaoping', 'Teng Hsiao-ping')).toBeGreaterThanOrEqual(0.8);
    expect(score('毛泽东', 'Mao Tse-tung')).toBeGreaterThanOrEqual(0.8);
    // Between two Pinyin spellings Zhou and Chou are different syllables (周, 仇).
    expect(score('Zhou Wei', 'Chou Wei')).toBeLessThan(0.85);
  });

  it('matches Ethiopic, Khmer, Devanagari and Arabic script names against their Latin listings', () => {
    for (const [native, latin] of [
      ['አብይ አህመድ', 'Abiy Ahmed'], ['መለስ ዜናዊ', 'Meles Zenawi'], ['ኢሳያስ አፈወርቂ', 'Isaias Afwerki'],
      ['ហ៊ុន សែន', 'Hun Sen'], ['ប៉ុល ពត', 'Pol Pot'], ['នរោត្តម សីហមុនី', 'Norodom Sihamoni'],
      ['नरेंद्र मोदी', 'Narendra Modi'], ['राहुल गांधी', 'Rahul Gandhi'],
      ['معمر القذافي', 'Muammar Gaddafi'], ['أيمن الظواهري', 'Ayman al-Zawahiri'], ['حسن نصر الله', 'Hassan Nasrallah'],
    ] as const) {
      expect(score(native, latin), `${native} / ${latin}`).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    }
    // ... and an Indic spelling is not read by its consonants alone.
    expect(score('किरण बेगामी', 'Vacuum Karan')).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('compares two names sharing a name-forming ending or beginning on the rest', () => {
    expect(score('Halla Jónsdóttir', 'Halla Tómasdóttir')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('Halla Jonsdottir', 'Halla Jónsdóttir')).toBe(1);
    expect(score('Giorgi Beridzeshvili', 'Giorgi Beridzeshvili')).toBe(1);
  });

  it('a name part given twice is one part: a repeat, not an extra', () => {
    const n = compareNames(normalizeName('Suhartono Suhartono', 'person'), normalizeName('SUHARTONO', 'person'));
    expect(n).toMatchObject({ score: 1, exact: true });
    expect(n.alignment.map((a) => a.method)).toEqual(['exact', 'repeated']);
    // A real first name equal to the family name still pairs both.
    expect(compareNames(normalizeName('Omar Omar', 'person'), normalizeName('OMAR, Omar Awadh', 'person')).exact).toBe(true);
    // Not when the other side has a part left over for the copy: Su is not Chang.
    expect(score('Chang Su Ha', 'Chang Chang Ha')).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('counts a title one side has as extra, never as a contradiction', () => {
    const n = compareNames(normalizeName('Putyin elnök', 'person'), normalizeName('PUTIN, Vladimir', 'person'));
    expect(n.penalties.some((p) => p.startsWith('unmatched tokens on both sides'))).toBe(false);
  });

  it('tolerates typos and transliteration variants', () => {
    expect(score('Osama bin Ladin', 'Usama bin Laden')).toBeGreaterThanOrEqual(0.9);
    expect(score('Sergi Lavrov', 'Sergei Lavrov')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(score('Alexander Luakshenko', 'Alexander Lukashenko')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(score('Mohamed bin Salman', 'Muhammad bin Salman')).toBeGreaterThanOrEqual(0.95);
    expect(score('Aleksandr Petrov', 'Alexander Petrov')).toBeGreaterThanOrEqual(0.95);
  });

  it('treats extra name parts as cheap and contradicting parts as expensive', () => {
    expect(score('Vladimir Putin', 'Vladimir Vladimirovich Putin')).toBeGreaterThanOrEqual(0.9);
    expect(score('SADDAM HUSSEIN AL-DULAIMI', 'SADDAM HUSSEIN AL-TIKRITI')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('Sergey Viktorovich Lavrov', 'Sergey Borisovitch Lavrov')).toBeLessThan(DEFAULT_THRESHOLD);
    // Two known but different names are not fuzzy variants of each other.
    expect(score('ABD EL KADER MAHMOUD AHMED EL SAYED', 'ABD EL KADER MAHMOUD MOHAMED EL SAYED')).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('gives initials a medium score and never a strong one on their own', () => {
    const s = score('J. Smith', 'John Smith');
    expect(s).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(s).toBeLessThan(score('Jon Smith', 'John Smith'));
    expect(s).toBeLessThan(0.9);
    expect(score('A. Nazarbayev', 'Nursultan Nazarbayev')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('N.N.', 'Nursultan Nazarbayev')).toBeLessThan(0.5);
  });

  it('ignores titles', () => {
    expect(score('Mr. Rami Makhlouf', 'Rami Makhlouf')).toBeGreaterThanOrEqual(0.95);
    expect(score('Präsident Barack Obama', 'Barack Obama')).toBeGreaterThanOrEqual(0.95);
  });

  it('joins and splits tokens', () => {
    expect(score('Xi Jin Ping', 'Xi Jinping')).toBe(1);
    expect(score('Abdul Rahman', 'Abdulrahman')).toBe(1);
    expect(score('FridrichBuchenberg', 'Friedrich Buchenberg')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });

  it('reads the same letters split between two words elsewhere as those words, a slip short of exact ("Ala-Sad" / "Al-Asad")', () => {
    const r = compare('Hayel Ala-Sad', 'Hayel Al-Asad');
    expect(r.alignment.find((a) => a.query === 'ala sad')).toMatchObject({ candidate: 'al asad', method: 'joined', similarity: 0.95 });
    expect(r.score).toBeGreaterThanOrEqual(0.95);
    expect(score('Muhammad Mahdi Als-Alih', 'Muhammad Mahdi Al-Salih')).toBeGreaterThanOrEqual(0.95);
    // Other letters are other words: no resplit.
    expect(score('Hayel Ala-Sid', 'Hayel Al-Asad')).toBeLessThan(0.9);
  });

  it('reads Abdulah as a spelling of Abdullah, not as the prefix Abdul', () => {
    expect(compare('Amir Abdulah', 'Amir Abdullah').alignment.find((a) => a.query === 'abdulah')).toMatchObject({ candidate: 'abdullah', method: 'equivalent' });
  });

  it('notices a father and son swapped around "bin"', () => {
    expect(score('SALMAN BIN MUHAMMAD AL-RAWI', 'MUHAMMAD BIN SALMAN AL-RAWI')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('Salman Mohammed bin', 'Mohammed bin Salman')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });
});

describe('compareNames: organisations, vessels, numbers', () => {
  it('weighs legal forms near zero', () => {
    expect(score('EMMA LLC', 'EMMA', 'organization')).toBeGreaterThanOrEqual(0.95);
    expect(score('EMMA LLC', 'ACME LLC', 'organization')).toBeLessThan(0.2);
    expect(score('Volkswagen AG', 'Siemens AG', 'organization')).toBeLessThan(0.2);
    expect(score('Deutsche Bank AG', 'Deutsche Bank Aktiengesellschaft', 'organization')).toBe(1);
    expect(score('Stripe LLC', 'Strip Limited Liability Company', 'organization')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });

  it('never lets a legal form alone make a strong match', () => {
    for (const schema of ['organization', 'unknown', 'person'] as const) {
      expect(score('CORP', 'ACME CORP', schema)).toBeLessThan(DEFAULT_THRESHOLD);
      expect(score('CORP', 'CORP', schema)).toBeLessThan(DEFAULT_THRESHOLD);
      expect(score('LLC', 'Limited Liability Company', schema)).toBeLessThan(DEFAULT_THRESHOLD);
    }
  });

  it('requires numbers to match exactly', () => {
    expect(score('Vessel 7', 'Vessel 8', 'vessel')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('Vessel 7', 'Vessel 7', 'vessel')).toBe(1);
    expect(score('Brigade Forty-Four', 'Brigade 44', 'organization')).toBe(1);
    expect(score('Bowne Global Solutions, Inc.', 'Bowne Global Solutions II, Inc.', 'organization')).toBeLessThan(DEFAULT_THRESHOLD);
    expect(compare('Vessel 7', 'Vessel 8', 'vessel').penalties).toContain('numbers differ');
  });

  it('handles dotted forms, ampersands and joined words', () => {
    expect(score('SiemensAG', 'Siemens AG', 'organization')).toBe(1);
    expect(score('AT&T Inc.', 'AT and T Inc.', 'organization')).toBe(1);
    expect(score('HSBC Holdings p.l.c.', 'HSBC Holdings plc', 'organization')).toBe(1);
    expect(score('U.S. Department of State', 'United States Department of State', 'organization')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });
});

describe('compareNames: token weights', () => {
  // A stand-in IDF: common given names are uninformative, a rare family name is telling.
  const idf: Record<string, number> = { mohammed: 0.1, ali: 0.15, hassan: 0.3, rahimi: 3 };
  const tokenWeight = (t: string): number => idf[t] ?? 1;

  it('does not let common tokens carry a match alone', () => {
    expect(score('Mohammed', 'Mohammed Ali Rahimi', 'person', { tokenWeight })).toBeLessThan(0.5);
    expect(score('Mohammed Ali', 'Mohammed Ali Rahimi', 'person', { tokenWeight })).toBeLessThan(DEFAULT_THRESHOLD);
    expect(score('Mohammed Ali Hassan', 'Mohammed Ali Rahimi', 'person', { tokenWeight })).toBeLessThan(0.3);
    // Without weights the same pair looks like a partial match.
    expect(score('Mohammed Ali', 'Mohammed Ali Rahimi')).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });

  it('lets a rare token carry weight and keeps exact full matches exact', () => {
    expect(score('Rahimi', 'Mohammed Ali Rahimi', 'person', { tokenWeight })).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(score('Mohammed Ali', 'Mohammed Ali', 'person', { tokenWeight })).toBe(1);
  });
});

describe('compareNames: explanation', () => {
  it('lists every token with its method and similarity', () => {
    const r = compare('Jon Smyth Jr', 'John Smith');
    expect(r.alignment).toContainEqual({ query: 'smyth', candidate: 'smith', method: 'edit_distance', similarity: expect.any(Number), at: [1, 2, 1, 2] });
    expect(r.alignment.find((a) => a.query === 'jon')?.candidate).toBe('john');
    // Every token, with the similarity it earned: a typo each in "jon" and "smyth", a suffix
    // the other name lacks (no similarity, a small penalty).
    expect(r.alignment).toEqual([
      { query: 'jon', candidate: 'john', method: 'edit_distance', similarity: 0.942, at: [0, 1, 0, 1] },
      { query: 'smyth', candidate: 'smith', method: 'edit_distance', similarity: 0.987, at: [1, 2, 1, 2] },
      { query: 'jr', candidate: null, method: 'unmatched', similarity: 0, at: [2, 3, -1, -1] },
    ]);
    expect(r.score).toBe(0.945);
  });

  it('names the method that matched', () => {
    const method = (a: string, b: string, q: string, schema: NameSchema = 'person') =>
      compare(a, b, schema).alignment.find((x) => x.query === q)?.method;
    expect(method('Vladimir Putin', 'Vladimir Putin', 'vladimir')).toBe('exact');
    expect(method('Usama Ladin', 'Osama Ladin', 'usama')).toBe('equivalent');
    expect(method('Catherine Smith', 'Kathryn Smith', 'catherine')).toBe('phonetic');
    expect(method('J. Smith', 'John Smith', 'j')).toBe('initial');
    expect(method('Xi Jin Ping', 'Xi Jinping', 'jin ping')).toBe('joined');
    expect(method('Alphanet Corporation', 'Alphabet Corporation', 'alphanet', 'organization')).toMatch(/edit_distance|jaro_winkler/);
  });

  it('reports unmatched tokens and penalties', () => {
    const r = compare('Friedrich Lindenberg', 'Lars Friedrich Lindemann');
    expect(r.alignment.some((a) => a.method === 'unmatched')).toBe(true);
    expect(r.penalties.length).toBeGreaterThan(0);
    expect(r.score).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('scores empty or punctuation-only names 0', () => {
    expect(score('', 'John Smith')).toBe(0);
    expect(score('---', '...')).toBe(0);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['Vladimir Putin', 'PUTIN, Vladimir Vladimirovich'], ['J. Smith', 'John Smith'], ['Xi Jin Ping', '习近平']]) {
      expect(score(a ?? '', b ?? '')).toBe(score(b ?? '', a ?? ''));
    }
  });

  it('gives the known answer, whatever was compared before (no state carried between calls)', () => {
    const expected = {
      score: 0.958,
      alignment: [
        { query: 'abd al rahman', candidate: 'abdulrahman', method: 'joined', similarity: 0.992, at: [0, 3, 0, 1] },
        { query: 'salim', candidate: 'saleem', method: 'edit_distance', similarity: 0.932, at: [3, 4, 1, 2] },
        { query: 'ibrahim', candidate: 'ibraheem', method: 'equivalent', similarity: 0.98, at: [4, 5, 2, 3] },
      ],
      penalties: [],
      exact: false,
      reading: false,
    };
    expect(compare('Abd al-Rahman Salim Ibrahim', 'Abdulrahman Saleem Ibraheem')).toEqual(expected);
    for (const [a, b] of [['Ibrahim Salim', 'Salem Ibraheem'], ['习近平', 'Xi Jinping'], ['Abdul Rahman', 'Abd al-Rahman Khan']]) compare(a!, b!);
    expect(compare('Abd al-Rahman Salim Ibrahim', 'Abdulrahman Saleem Ibraheem')).toEqual(expected);
  });
});

describe('scoreNamePair', () => {
  it('normalises both names with the schema label and returns the score', () => {
    expect(scoreNamePair('Person', 'PUTIN, Vladimir', 'Vladimir Putin')).toBe(1);
    expect(scoreNamePair('Company', 'EMMA LLC', 'ACME LLC')).toBeLessThan(0.2);
    expect(scoreNamePair('Vessel', 'Zu Zag Bong 6', 'Zu Zag Bong 5')).toBeLessThan(DEFAULT_THRESHOLD);
  });
});

describe('compareNames: a screen\'s pair memo', () => {
  it('gives every candidate the comparison it gets without the memo: words and words written together, in any order', () => {
    const queries = ['Abd Allah Nasr Allah', 'Xi Jin Ping', 'Mohammad Abdul Rahman', 'عبد الله نصر الله', 'Jean Pierre Dupont'];
    const listed = [
      'Abdallah Nasrallah', 'Nasrallah Abdallah', 'ABDULLAH, Nasr', 'Xi Jinping', 'Jinping Xi', 'Ping Xi Jin', 'Abdulrahman Mohammad',
      'Mohammad Abdulrahman', 'Abdul Rahman Mohammad', 'Xi Chinping', 'Hsi Chinping', 'Jean-Pierre Dupont', 'Jeanpierre Dupont', 'Pierre Jean Dupond', 'عبدالله نصرالله',
    ];
    const numbers = new Map<string, number>();
    const memo = createPairMemo();
    for (const q of queries) {
      const query = normalizeName(q, 'person');
      startPairMemo(memo, 4096);
      // Twice over, the second time from the memo.
      for (const name of [...listed, ...[...listed].reverse()]) {
        const cand = normalizeName(name, 'person');
        const candidateIds = cand.tokens.map((t) => numbers.get(tokenSignature(t)) ?? numbers.set(tokenSignature(t), numbers.size).get(tokenSignature(t))!);
        const remembered = compareNames(query, cand, { pairs: { memo, candidateIds } });
        expect(remembered, `${q} / ${name}`).toEqual(compareNames(query, cand));
      }
    }
  });
});
