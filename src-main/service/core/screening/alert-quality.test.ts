// The rules that keep everyday names from raising strong sanctions alerts (issue 23), each
// through screen() on a small list written for the rule; the ranking and wording rules on the
// real shipped lists. Every test fails when its rule is taken out of the engine.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, screen, type ScreeningIndex } from './engine';
import { loadShippedLists } from './lists/load';
import { importUserList } from './lists/user-csv';
import { NAME_SHARE } from './match/name-stats';
import { nameShare, normalizeSubjectName } from './match/normalize';
import { PARAMS } from './match/params';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

// Records with a date of birth and country, and records with nothing but a name ("bare").
const CSV = [
  'kind,name,aliases,dob,country,ref',
  'sanctions,Juan Vasquez,,1970-01-01,MX,juan',
  'sanctions,Richard Kelly Smith,,1960-05-05,GB,smith',
  'sanctions,Scott Michael Miller,,1961-01-01,US,miller',
  'sanctions,Bogdan Kazimierz Wroblewski,,1950-03-03,PL,rare2',
  'sanctions,Riley M. Moore,,1980-06-09,US,moore',
  'sanctions,Zygmunt Kowalczykiewicz,,1955-02-02,PL,rare',
  'sanctions,Charles Carper,,,,carper',
  'sanctions,Oleksandr Hrytsenko,,,,bare',
  'sanctions,Zbyslav Oleksiy Hrytsenko,,,,bare3',
  'sanctions,Anthony J. Torresi,,1966-06-06,US,torresi',
  'sanctions,Luis Lopez Ibarra,,1971-07-07,MX,luis',
  'sanctions,Julio Cesar Mendoza,,1968-08-08,CO,julio',
  'sanctions,"IVANCHENKO, Taras Bohdanovych",,1950-03-03,UA,patro',
  'sanctions,"OSMAN, Ahmed Abdullahi",,1961-06-06,SO,osman',
].join('\n');

let small: ScreeningIndex;
const ids = new Map<string, string>();

beforeAll(() => {
  const imp = importUserList(CSV, { listName: 'Rules' }).import;
  for (const e of imp.entities) ids.set(e.id.split(':').at(-1)!, e.id);
  small = buildIndex(imp.entities);
});

function top(first: string, last: string, index = small, dob?: string) {
  const r = screen(index, { first_name: first, last_name: last, ...(dob ? { date_of_birth: dob } : {}) }, { lists: ['sanctions'] });
  return r.matches[0];
}

describe('name frequency: a common name is a name, not a typo', () => {
  it('two different common given names (Jan / Juan) are two people: not reported as the listed one', () => {
    expect(top('Jan', 'Vasquez')).toBeUndefined();
    // Even beside the listed date of birth, another given name is a case to review, not a match.
    const m = top('Jan', 'Vasquez', small, '1970-01-01');
    expect(m?.strength).toBe('possible');
    expect(m?.explanation.summary).toBe('another name: Jan/Juan; date of birth matches');
    expect(top('Juan', 'Vasquez', small, '1970-01-01')?.strength).toBe('strong');
  });

  it('a subject\'s common surname a letter from a rarer listed one (Carter / Carper) is at most possible', () => {
    expect(top('Charles', 'Carter')?.strength ?? 'none').not.toBe('strong');
    expect(top('Charles', 'Carper')?.entity_id).toBe(ids.get('carper'));
  });

  it('a name and its other-gender form (Luisa / Luis, Julia / Julio) are two people: at most possible', () => {
    const luisa = top('Luisa', 'Lopez Ibarra', small, '1971-07-07');
    expect(luisa?.entity_id).toBe(ids.get('luis'));
    expect(luisa?.strength).toBe('possible');
    expect(top('Luis', 'Lopez Ibarra', small, '1971-07-07')?.strength).toBe('strong');
    const julia = screen(small, { first_name: 'Julia', middle_name: 'Cesar', last_name: 'Mendoza', date_of_birth: '1968-08-08' }, { lists: ['sanctions'] }).matches[0];
    expect(julia?.entity_id).toBe(ids.get('julio'));
    expect(julia?.strength).toBe('possible');
    // A typo that is no gender form stays a likely typo of the listed name.
    expect(screen(small, { first_name: 'Julip', middle_name: 'Cesar', last_name: 'Mendoza', date_of_birth: '1968-08-08' }, { lists: ['sanctions'] }).matches[0]?.strength).toBe('strong');
  });

  it('a one-letter slip in a rare name is still a likely typo: reported on the name alone, strong with the date of birth', () => {
    const m = top('Zygmunt', 'Kowalczykiewic');
    expect(m?.entity_id).toBe(ids.get('rare'));
    expect(m?.strength).toBe('possible');
    expect(top('Zygmunt', 'Kowalczykiewic', small, '1955-02-02')?.strength).toBe('strong');
    // Against another date of birth two things would have to be wrong: not reported. The exact
    // listed name with another date of birth is (a mistyped date must not hide a listed person).
    expect(top('Zygmunt', 'Kowalczykiewic', small, '1977-07-07')).toBeUndefined();
    expect(top('Zygmunt', 'Kowalczykiewicz', small, '1977-07-07')?.entity_id).toBe(ids.get('rare'));
  });
});

describe('the whole name must agree as names', () => {
  it('a listed middle name an everyday name lacks (Richard [Kelly] Smith) keeps the match possible, and another date of birth drops it', () => {
    const m = top('Richard', 'Smith');
    expect(m?.entity_id).toBe(ids.get('smith'));
    expect(m?.strength).toBe('possible');
    expect(m?.explanation.summary).toBe('every part of the name matches; listed name also has: Kelly');
    // Not the listed name in full: a date of birth that differs outweighs two everyday words.
    expect(top('Richard', 'Smith', small, '1971-01-01')).toBeUndefined();
    // The exact listed name is always reported, and the date of birth makes it strong.
    expect(top('Richard Kelly', 'Smith')?.strength).toBe('possible');
    expect(top('Richard Kelly', 'Smith', small, '1960-05-05')?.strength).toBe('strong');
    // An exact date of birth identifies the person beyond the part they left out.
    expect(top('Richard', 'Smith', small, '1960-05-05')?.strength).toBe('strong');
  });

  it('a rare name without its listed middle name is still reported, and strong with the date of birth (one Bogdan Wroblewski, many Richard Smiths)', () => {
    const m = top('Bogdan', 'Wroblewski');
    expect(m?.entity_id).toBe(ids.get('rare2'));
    expect(m?.strength).toBe('possible');
    expect(top('Bogdan', 'Wroblewski', small, '1950-03-03')?.strength).toBe('strong');
  });

  it('the subject\'s first name meeting the listed middle name (Michael ~ Scott Michael Miller) is reported beside the listed date of birth only', () => {
    // Without it, a son or a father of the chain as often as the person (issue 36).
    expect(top('Michael', 'Miller')).toBeUndefined();
    const m = top('Michael', 'Miller', undefined, '1961-01-01');
    expect(m?.entity_id).toBe(ids.get('miller'));
    // An exact date of birth identifies the person beyond the name they go by.
    expect(m?.strength).toBe('strong');
  });

  it('a listed patronymic left out is a part left out: another date of birth drops the match, and the shared country does not hold it', () => {
    const m = top('Taras', 'Ivanchenko');
    expect(m?.entity_id).toBe(ids.get('patro'));
    expect(m?.strength).toBe('possible');
    expect(top('Taras', 'Ivanchenko', small, '1985-04-04')).toBeUndefined();
    const sameCountry = screen(small, { first_name: 'Taras', last_name: 'Ivanchenko', date_of_birth: '1985-04-04', country: 'UA' }, { lists: ['sanctions'] });
    expect(sameCountry.matches).toEqual([]);
    // The listed name in full is reported whatever the date of birth; the listed date makes it strong.
    expect(top('Taras Bohdanovych', 'Ivanchenko', small, '1985-04-04')?.strength).toBe('possible');
    expect(top('Taras', 'Ivanchenko', small, '1950-03-03')?.strength).toBe('strong');
  });

  it('a listed name with a part left out is reported on the name alone only when the words given identify (one Taras Ivanchenko, many Ahmed Osmans)', () => {
    expect(top('Ahmed', 'Osman')).toBeUndefined();
    expect(top('Taras', 'Ivanchenko')?.entity_id).toBe(ids.get('patro'));
    // The listed name in full, or with a slip, is how people type it: reported however common its words.
    expect(top('Ahmed Abdullahi', 'Osman')?.entity_id).toBe(ids.get('osman'));
    expect(top('Ahmed Abdullahi', 'Osmann')?.entity_id).toBe(ids.get('osman'));
    // The listed date of birth says who it is beyond the part left out.
    expect(top('Ahmed', 'Osman', small, '1961-06-06')?.entity_id).toBe(ids.get('osman'));
  });

  it('a given name that meets only a listed middle initial, the listed first name missing, is no match ("Malachi Moore" / "Riley M. Moore")', () => {
    expect(top('Malachi', 'Moore')).toBeUndefined();
    expect(top('Riley', 'Moore')?.entity_id).toBe(ids.get('moore'));
  });

  it('a subject\'s common surname a letter from a rarer listed one (Torres / Torresi) is possible only beside the date of birth', () => {
    expect(top('Anthony', 'Torres')).toBeUndefined();
    const m = top('Anthony', 'Torres', small, '1966-06-06');
    expect(m?.entity_id).toBe(ids.get('torresi'));
    expect(m?.strength).toBe('possible');
  });

  it('a record with no date of birth, country or identifier is strong only on its exact full name, of distinctive parts', () => {
    expect(top('Zbyslav Oleksiy', 'Hrytsenko')?.strength).toBe('strong');
    const typo = top('Zbyslav Oleksiy', 'Hrytsenco');
    expect(typo?.entity_id).toBe(ids.get('bare3'));
    expect(typo?.strength).toBe('possible');
    // Two words alone, however rare, are many people: reported, never strong without a date of birth.
    expect(top('Oleksandr', 'Hrytsenko')?.strength).toBe('possible');
  });
});

describe('wording', () => {
  it('"name matches" only for an exact name; otherwise the summary says what differs', () => {
    const m = top('Zygmunt', 'Kowalczykiewic');
    expect(m?.explanation.exact_name).toBe(false);
    expect(m?.explanation.summary).toBe('close spelling: Kowalczykiewic/Kowalczykiewicz');
    expect(top('Zygmunt', 'Kowalczykiewicz')?.explanation.summary).toBe('name matches');
  });
});

describe('on the shipped lists', () => {
  let shipped: ScreeningIndex;
  beforeAll(() => {
    shipped = buildIndex(loadShippedLists(path.join(repoRoot, 'resources', 'watchlists')).entities);
  }, 60_000);

  it('a listed short name whose words few people carry is reported on the name alone: "Saddam Al-Tikriti", "Alyaksandr Lukashenka"', () => {
    const saddam = screen(shipped, { first_name: 'Saddam', last_name: 'Al-Tikriti' }, { lists: ['sanctions'] }).matches;
    expect(saddam.some((m) => /SADDAM HUSSEIN/i.test(m.name) || m.aliases.some((a) => /^SADDAM HUSSEIN AL-TIKRITI$/i.test(a)))).toBe(true);
    const president = screen(shipped, { first_name: 'Alyaksandr', last_name: 'Lukashenka' }, { lists: ['sanctions'] }).matches;
    expect(president.some((m) => m.listings.some((l) => /LUKASHENKA, Alyaksandr/i.test(l.name)))).toBe(true);
  });

  it('two letters swapped in the middle of a listed family name still find the person ("Ibqal" for Iqbal, "Horfsord" for Horsford)', () => {
    // The swap breaks both halves of the word, the keys a single typo leaves intact.
    for (const [first, last, listed] of [['Zafar', 'Ibqal', /ZAFAR IQBAL/i], ['Steven', 'Horfsord', /Steven Horsford/i], ['Haji Muhammad', 'Asrhaf', /ASHRAF, Haji Muhammad/i]] as const) {
      const matches = screen(shipped, { first_name: first, last_name: last }, { lists: ['sanctions', 'pep'] }).matches;
      expect(matches.some((m) => m.listings.some((l) => listed.test(l.name))), `${first} ${last}`).toBe(true);
    }
  });

  it('two typos are close spelling, not an exact name: "Vladimr Puttin"', () => {
    const m = screen(shipped, { first_name: 'Vladimr', last_name: 'Puttin' }, { lists: ['sanctions'] }).matches[0]!;
    expect(m.name).toMatch(/PUTIN/);
    expect(m.explanation.exact_name).toBe(false);
    expect(m.explanation.summary).toBe('close spelling: Vladimr/Vladimir, Puttin/Putin');
  });

  it('a listed name met by keys of less than half of the query\'s weight is no candidate: "Ajmal Qaderi" is not Jamil Qadri or Kadri Jameel', () => {
    const names = screen(shipped, { first_name: 'Ajmal', last_name: 'Qaderi' }, { lists: ['sanctions', 'pep'] }).matches.map((m) => m.explanation.matched_name);
    expect(names.filter((n) => /jam(i|ee)l/i.test(n))).toEqual([]);
    // Each word on its own still finds what it should: the exact listed name.
    expect(screen(shipped, { first_name: 'Jamil', last_name: 'Qadri' }, { lists: ['sanctions', 'pep'] }).matches[0]?.explanation.matched_name).toMatch(/jamil|qadri/i);
  });

  it('Arabic "أسامة بن لادن": the full-name match (Usama) ranks above a partial one (Hamza), and Hamza is not strong', () => {
    const r = screen(shipped, { first_name: 'أسامة', last_name: 'بن لادن' }, { lists: ['sanctions'] });
    expect(r.matches[0]!.name).toMatch(/Usama/i);
    const hamza = r.matches.find((m) => /HAMZA/.test(m.name));
    expect(hamza?.strength).not.toBe('strong');
  });

  it('explanations show the words as written and the romanisation used, never comparison keys', () => {
    const m = screen(shipped, { first_name: 'أسامة', last_name: 'بن لادن' }, { lists: ['sanctions'] }).matches[0]!;
    const queries = m.explanation.alignment.map((a) => a.query).filter((q) => q !== null);
    expect(queries).toEqual(['أسامة', 'بن', 'لادن']);
    expect(m.explanation.alignment.every((a) => a.romanisation !== null && !/\b(smh|ldn|bn)\b/.test(a.romanisation))).toBe(true);
    // Each word read from another script is shown with the Latin letters it was read as, and the script.
    expect(m.explanation.summary).toContain('read from Arabic script: أسامة → Usama/Usama');
    expect(m.explanation.summary).toContain('لادن → Ladan/Ladin');
    expect(m.explanation.summary).not.toMatch(/\b(smh|ldn)\b/);
  });

  it('another father\'s name (Vladimirovna / Vasilyevna) is another woman: "Irina Vladimirovna Popova" is not Irina Vasilyevna Popova', () => {
    const names = (middle?: string) => screen(shipped, { first_name: 'Irina', ...(middle ? { middle_name: middle } : {}), last_name: 'Popova' }, { lists: ['sanctions', 'pep'] }).matches.map((m) => m.explanation.matched_name);
    expect(names('Vladimirovna').filter((n) => /vasil/i.test(n))).toEqual([]);
    expect(names().some((n) => /vasil/i.test(n))).toBe(true);
    expect(names('Vasilievna').some((n) => /vasil/i.test(n))).toBe(true);
  });

  it('an exact listed name with a wrong date of birth is still reported at 100', () => {
    const m = screen(shipped, { first_name: 'Bashar', last_name: 'al-Assad', date_of_birth: '1990-01-01' }, { lists: ['sanctions'] }).matches[0]!;
    expect(m.explanation.exact_name).toBe(true);
    expect(m.strength).not.toBeUndefined();
    expect(m.explanation.name_score).toBe(1);
  });
});

// Issue 36: name evidence by rules that hold for every naming tradition. Each rule through
// screen() on a list written for it, or through the comparison it changes.
describe('name evidence in every naming tradition', () => {
  const LIST = [
    'kind,name,aliases,dob,country,ref',
    'sanctions,Lionel Dumont,Bilal,1971-01-21,FR,dumont',
    'sanctions,Hamad Karimi Zuberi,,1966-04-04,AE,hamad',
    'sanctions,Mohammad Hussein Zamani,,1962-02-02,IR,zamani',
    'sanctions,Akhund Mohammad Abbas,,,AF,abbas',
    'sanctions,Rashid Ayoub Tahiri,,1958-09-09,MA,rashid',
    'sanctions,Youssef Mansur Tlemcani,,1961-01-01,DZ,mansur',
    'sanctions,Ali Reza Moradi,,,IR,moradi',
    'sanctions,Wojciech Zbigniewski,,,PL,rare2w',
    'sanctions,Abdirahim Hashi Warsame,,1970-05-05,SO,warsame',
    'sanctions,Osman Gedi,,1969-07-07,SO,gedi',
    'sanctions,Anatoly Vasiliev,,1960-01-01,RU,vasiliev',
    'sanctions,Lei Zhang,,1963-03-03,CN,zhang',
    'sanctions,Tabil Qassab Darvish,,1965-05-05,SY,tabil',
    'sanctions,Kassan Wardeh Fadlallah,,1964-04-04,LB,kassan',
    'sanctions,يونس أحمد محمد,,1970-01-01,IR,arabic',
    'sanctions,Марина Аркадьевна Федорова,,1975-01-01,RU,cyrillic',
    'sanctions,Pham Van Hung,,1950-01-01,VN,phamhung',
    'sanctions,Hoang Thi Mai,,1955-05-05,VN,hoang',
    'sanctions,ALEKSEEV Mikhail Yurevich,,1958-08-08,RU,alekseev',
    'sanctions,Khalid bin Omar Baqari,,1972-02-02,YE,baqari',
    'sanctions,Amini Dhore Warfa,,1968-08-08,SO,amini',
    'sanctions,"BORISOVA, Natalya Vladimirovna",,1971-01-01,RU,borisova',
    'sanctions,"ALAM, Mohammad Jahangir",,1963-03-03,BD,alam',
    'sanctions,خالد صوان,,1970-02-02,SY,sawan',
  ].join('\n');
  let idx: ScreeningIndex;
  const ref = new Map<string, string>();
  beforeAll(() => {
    const imp = importUserList(LIST, { listName: 'Traditions' }).import;
    for (const e of imp.entities) ref.set(e.id.split(':').at(-1)!, e.id);
    idx = buildIndex(imp.entities);
  });
  const one = (first: string, last: string, extra: Partial<{ date_of_birth: string; country: string; middle_name: string }> = {}) =>
    screen(idx, { first_name: first, last_name: last, ...extra }, { lists: ['sanctions'] }).matches.find((m) => m.entity_id !== undefined);

  it('without a date of birth, a partial name is reported only at the name-only floor of information (the fairness dial)', () => {
    // Natalya Borisova without her patronymic: two common words, just over the floor's default.
    const borisova = () => one('Natalya', 'Borisova')?.entity_id;
    expect(borisova()).toBe(ref.get('borisova'));
    const floor = PARAMS.nameOnlyInformation;
    try {
      PARAMS.nameOnlyInformation = 6;
      expect(borisova()).toBeUndefined();
      // With a date of birth the floor is the general one: the record's date decides.
      expect(one('Natalya', 'Borisova', { date_of_birth: '1971-01-01' })?.entity_id).toBe(ref.get('borisova'));
      // A whole name with a slip in it is not a partial name: the floor is the general one.
      const inoue = buildIndex(importUserList('kind,name,dob,country,ref\nsanctions,"INOUE, Kunio",1950-01-01,JP,inoue\n', { listName: 'Slip' }).import.entities);
      expect(screen(inoue, { first_name: 'Kunio', last_name: 'Ioue' }, { lists: ['sanctions'] }).matches.map((m) => m.name)).toEqual(['INOUE, Kunio']);
    } finally {
      PARAMS.nameOnlyInformation = floor;
    }
  });

  it('a one-word alias is never exact and never strong, even beside the listed date of birth', () => {
    const m = one('Bilal', 'Sheikh', { date_of_birth: '1971-01-21' });
    expect(m?.entity_id).toBe(ref.get('dumont'));
    expect(m?.explanation.exact_name).toBe(false);
    expect(m?.strength).toBe('possible');
    expect(one('Lionel', 'Dumont', { date_of_birth: '1971-01-21' })?.strength).toBe('strong');
    // The one word typed as both names is the alias exactly, and still names nobody on its own.
    const alias = one('Bilal', 'Bilal', { date_of_birth: '1971-01-21' });
    expect(alias?.explanation.exact_name).toBe(false);
    expect(alias?.strength).toBe('possible');
  });

  it('a low-quality alias alone says nothing: reported beside a date of birth that agrees, or when its words identify a person', () => {
    const weak = buildIndex(importUserList([
      'kind,name,weak_aliases,dob,country,ref',
      'sanctions,Karim Abdul Waheed,Saiful Islam,1970-01-01,BD,islam',
      'sanctions,Teodor Brzeczyszczykiewicz,Zbyslav Grzegorz Wojciechowski,1960-06-06,PL,rare',
    ].join('\n'), { listName: 'Weak' }).import.entities);
    const names = (first: string, last: string, dob?: string) =>
      screen(weak, { first_name: first, last_name: last, ...(dob ? { date_of_birth: dob } : {}) }, { lists: ['sanctions'] }).matches.map((m) => m.name);
    expect(names('Saiful', 'Islam')).toEqual([]);
    expect(names('Islam', 'Saiful')).toEqual([]);
    expect(names('Saiful', 'Islam', '1970-01-01')).toEqual(['Karim Abdul Waheed']);
    expect(names('Zbyslav Grzegorz', 'Wojciechowski')).toEqual(['Teodor Brzeczyszczykiewicz']);
  });

  it('a last name that is also a title elsewhere (Sheikh) is the family name the customer gave', () => {
    const n = normalizeSubjectName('Bilal', undefined, 'Sheikh');
    expect(n.tokens.map((t) => [t.text, t.kind])).toEqual([['bilal', 'given'], ['sheikh', 'family']]);
  });

  it('two established names that look alike (Hamid / Hamad) are two names: never strong, worded "another name"', () => {
    const named = one('Hamid Karimi', 'Zuberi');
    expect(named?.strength).toBe('possible');
    expect(named?.explanation.summary).toContain('another name: Hamid/Hamad');
    expect(one('Hamid Karimi', 'Zuberi', { date_of_birth: '1966-04-04' })?.strength).toBe('possible');
    expect(one('Hamad Karimi', 'Zuberi', { date_of_birth: '1966-04-04' })?.strength).toBe('strong');
  });

  it('spellings the lists\' own aliases give for one name (Hossein / Hussein) stay one name', () => {
    const m = one('Mohammad Hossein', 'Zamani', { date_of_birth: '1962-02-02' });
    expect(m?.entity_id).toBe(ref.get('zamani'));
    expect(m?.strength).toBe('strong');
    expect(m?.explanation.summary).not.toContain('another name');
  });

  it('a name formed from another by its ending (Abbas / Abbasi) is another name', () => {
    expect(one('Akhund Mohammad', 'Abbasi')).toBeUndefined();
    // Rashidi is formed from the established Rashid however rare it is itself.
    const formed = one('Rashidi Ayoub', 'Tahiri', { date_of_birth: '1958-09-09' });
    expect(formed?.strength).toBe('possible');
    expect(formed?.explanation.summary).toContain('another name: Rashidi/Rashid');
    expect(one('Akhund Mohammad', 'Abbas')?.entity_id).toBe(ref.get('abbas'));
    // The nisba made from any spelling of a name (Mansouri from Mansur) is a family name, not that name.
    const nisba = one('Youssef Mansouri', 'Tlemcani', { date_of_birth: '1961-01-01' });
    expect(nisba?.explanation.summary).toContain('another name: Mansouri/Mansur');
    expect(one('Youssef Mansour', 'Tlemcani', { date_of_birth: '1961-01-01' })?.explanation.summary ?? '').not.toContain('another name');
    // "Mohammad Abbas" is the listed name without its title: reported, never strong on two common words.
    expect(one('Mohammad', 'Abbas')?.strength).toBe('possible');
  });

  it('one stem with endings of two kinds (Amina / Amini / Amine) is two names, however rare the words', () => {
    const dob = { date_of_birth: '1968-08-08' };
    for (const [given, summary] of [['Amina', 'another name: Amina/Amini'], ['Amine', 'another name: Amine/Amini']] as const) {
      const m = one(`${given} Dhore`, 'Warfa', dob);
      expect(m?.entity_id).toBe(ref.get('amini'));
      expect(m?.strength).toBe('possible');
      expect(m?.explanation.summary).toContain(summary);
    }
    // -i and -y are one ending, spelled two ways: a spelling of the listed name.
    const spelled = one('Aminy Dhore', 'Warfa', dob);
    expect(spelled?.entity_id).toBe(ref.get('amini'));
    expect(spelled?.explanation.summary ?? '').not.toContain('another name');
  });

  it('a name of common parts with only its country listed is reported, not strong; a distinctive one is strong', () => {
    const common = one('Ali Reza', 'Moradi', { country: 'IR', date_of_birth: '1980-01-01' });
    expect(common?.entity_id).toBe(ref.get('moradi'));
    expect(common?.strength).toBe('possible');
    expect(one('Wojciech', 'Zbigniewski', { country: 'PL', date_of_birth: '1980-01-01' })?.strength).toBe('strong');
    expect(one('Wojciech', 'Zbigniewski')?.strength).toBe('possible');
  });

  it('the subject\'s own given name, or the listed first given name, missing: a relative, reported only beside the listed date of birth', () => {
    // The listed first given name (Abdirahim) is missing: "Hashi Warsame" is his father's chain.
    expect(one('Hashi', 'Warsame')).toBeUndefined();
    expect(one('Hashi', 'Warsame', { date_of_birth: '1970-05-05' })?.entity_id).toBe(ref.get('warsame'));
    // The subject's own given name (Bashir) is not listed: "Osman Gedi" is his father and grandfather.
    expect(one('Bashir', 'Gedi', { middle_name: 'Osman' })).toBeUndefined();
    expect(one('Bashir', 'Gedi', { middle_name: 'Osman', date_of_birth: '1969-07-07' })?.entity_id).toBe(ref.get('gedi'));
    // A leading Muhammad is a prefix: the customer's own name is the next one.
    expect(one('Muhammad', 'Gedi', { middle_name: 'Osman' })?.entity_id).toBe(ref.get('gedi'));
    // The listed person's own short name stays reported.
    expect(one('Abdirahim', 'Warsame')?.entity_id).toBe(ref.get('warsame'));
  });

  it('a father\'s name left out or written another way (Yurevich / Yurievich, bin Omar) is no other father; another one is, except beside the listed date of birth', () => {
    // (The shipped-lists test above fails without the rule; this one guards what it must not refuse.)
    expect(one('Mikhail', 'Alekseev', { middle_name: 'Ivanovich' })).toBeUndefined();
    expect(one('Mikhail', 'Alekseev', { middle_name: 'Ivanovich', date_of_birth: '1958-08-08' })?.entity_id).toBe(ref.get('alekseev'));
    expect(one('Mikhail', 'Alekseev')?.entity_id).toBe(ref.get('alekseev'));
    expect(one('Mikhail', 'Alekseev', { middle_name: 'Yurievich' })?.entity_id).toBe(ref.get('alekseev'));
    expect(one('Khalid', 'Baqari', { middle_name: 'bin Hassan' })).toBeUndefined();
    expect(one('Khalid', 'Baqari', { middle_name: 'bin Omar' })?.entity_id).toBe(ref.get('baqari'));
  });

  it('a feminine family name against the masculine one (Vasilyeva / Vasiliev) is a woman and a man: never strong', () => {
    const woman = one('Anatoly', 'Vasilyeva', { date_of_birth: '1960-01-01' });
    expect(woman?.strength).toBe('possible');
    expect(woman?.explanation.summary).toContain('another name: Vasilyeva/Vasiliev');
    expect(one('Anatoly', 'Vasilyev', { date_of_birth: '1960-01-01' })?.strength).toBe('strong');
  });

  it('another one-syllable pinyin spelling in a Chinese name (Zheng / Zhang) is another character, another name: never strong', () => {
    const other = one('Lei', 'Zheng', { date_of_birth: '1963-03-03' });
    expect(other?.strength).toBe('possible');
    expect(other?.explanation.summary).toContain('another name: Zheng/Zhang');
    expect(one('Lei', 'Zhang', { date_of_birth: '1963-03-03' })?.strength).toBe('strong');
  });

  it('a spelling with other consonants (Nabil / Tabil) is worded "typo or another name"; one with the same consonants (Darwish / Darvish) "close spelling"', () => {
    const m = one('Nabil Qassab', 'Darwish', { date_of_birth: '1965-05-05' });
    expect(m?.entity_id).toBe(ref.get('tabil'));
    expect(m?.explanation.summary).toContain('typo or another name: Nabil/Tabil');
    expect(m?.explanation.summary).toContain('close spelling: Darwish/Darvish');
    expect(m?.explanation.alignment.find((a) => a.query === 'Nabil')?.method).toBe('slip');
  });

  it('an established name against a listed word of other consonants (Hassan / Kassan) is likelier the customer\'s own name: never strong', () => {
    const m = one('Hassan Wardeh', 'Fadlallah', { date_of_birth: '1964-04-04' });
    expect(m?.entity_id).toBe(ref.get('kassan'));
    expect(m?.strength).toBe('possible');
    expect(m?.explanation.summary).toContain('typo or another name: Hassan/Kassan');
    expect(one('Kassan Wardeh', 'Fadlallah', { date_of_birth: '1964-04-04' })?.strength).toBe('strong');
  });

  it('a word of another script read as another established name (محمد Muhammad / Mohammadi, Марина / Maria) is another name: never strong', () => {
    const arabic = one('Younes Ahmad', 'Mohammadi', { date_of_birth: '1970-01-01' });
    expect(arabic?.entity_id).toBe(ref.get('arabic'));
    expect(arabic?.strength).toBe('possible');
    expect(arabic?.explanation.summary).toContain('another name: Mohammadi/محمد → Muhammad');
    expect(one('Younes Ahmad', 'Mohammad', { date_of_birth: '1970-01-01' })?.strength).toBe('strong');
    const cyrillic = one('Maria', 'Fedorova', { date_of_birth: '1975-01-01' });
    expect(cyrillic?.strength ?? 'none').not.toBe('strong');
    expect(one('Marina', 'Fedorova', { date_of_birth: '1975-01-01' })?.strength).toBe('strong');
  });

  it('another syllable in a Vietnamese name (Huong / Hung, Phan / Pham) is another name: never strong; a typo of a family name stays one', () => {
    const other = one('Van Huong', 'Pham', { date_of_birth: '1950-01-01' });
    expect(other?.entity_id).toBe(ref.get('phamhung'));
    expect(other?.strength).toBe('possible');
    expect(other?.explanation.summary).toContain('another name: Huong/Hung');
    expect(one('Van Hung', 'Phan', { date_of_birth: '1950-01-01' })?.explanation.summary ?? '').toContain('another name: Phan/Pham');
    expect(one('Van Hung', 'Pham', { date_of_birth: '1950-01-01' })?.strength).toBe('strong');
    // Hoanh is no Vietnamese family name: a slip of Hoang.
    const typo = one('Thi Mai', 'Hoanh', { date_of_birth: '1955-05-05' });
    expect(typo?.entity_id).toBe(ref.get('hoang'));
    expect(typo?.explanation.summary).not.toContain('another name');
  });

  it('a name common across its region counts as common where one country has few listed people (Osman)', () => {
    // Somalia has some 150 listed people; the Arab world and the Horn of Africa together, thousands.
    expect(nameShare('osman')).toBeGreaterThanOrEqual(0.01);
    expect(nameShare('osman')).toBe(nameShare('uthman'));
  });

  it('a person listed by several lists, or a family listed together, counts once in the name statistics (Lukashenka, al-Tikriti)', () => {
    // Belarus's president is on four lists, his sons and his wife beside him, spelled two ways: a
    // few people, not a name of Belarus. The Tikritis are one clan of Iraq's listed people.
    expect(nameShare('lukashenka')).toBe(0);
    expect(nameShare('lukashenko')).toBe(0);
    expect(nameShare('tikriti')).toBeLessThan(0.1);
  });

  it('names an open name list writes in an alphabet (Cyrillic Морозов is Morozov) are established names: Morozova is another name than Borisova', () => {
    // faker's Russian list is in Cyrillic; read as the matcher reads the script, its surnames are known names.
    for (const w of ['morozov', 'smirnov', 'kozlov', 'lebedev']) expect(nameShare(w), w).toBeGreaterThanOrEqual(PARAMS.establishedShare);
    expect(one('Natalia', 'Morozova', { middle_name: 'Vladimirovna' })).toBeUndefined();
    const m = one('Natalia', 'Morozova', { middle_name: 'Vladimirovna', date_of_birth: '1971-01-01' });
    expect(m?.strength).toBe('possible');
    expect(m?.explanation.summary).toMatch(/another name: Morozova\/Borisova/);
    expect(one('Natalia', 'Borisova', { middle_name: 'Vladimirovna' })?.entity_id).toBe(ref.get('borisova'));
  });

  it('a Latin word and a word in Arabic script are one name only when the letters are renderings of each other, not by sound class alone (Zein is not صوان Sawan)', () => {
    expect(one('Khaled', 'Zein')).toBeUndefined();
    const m = one('Khaled', 'Zein', { date_of_birth: '1970-02-02' });
    expect(m?.entity_id).toBe(ref.get('sawan'));
    expect(m?.explanation.summary).toMatch(/another name: Zein\/صوان → /);
    expect(m?.strength).toBe('possible');
    // The listed name's own spellings still read: Sawan, and Sauwan with its w written as a vowel.
    for (const family of ['Sawan', 'Sauwan']) {
      const own = one('Khaled', family);
      expect(own?.entity_id, family).toBe(ref.get('sawan'));
      expect(own?.explanation.summary, family).toMatch(/read from Arabic script/);
    }
  });

  it('Md. is Muhammad written short: "Md Jahangir Alam" meets the listed Mohammad Jahangir Alam as the full name does', () => {
    const md = one('Md. Jahangir', 'Alam', { date_of_birth: '1963-03-03' });
    const full = one('Mohammad Jahangir', 'Alam', { date_of_birth: '1963-03-03' });
    expect(md?.entity_id).toBe(ref.get('alam'));
    expect([md?.strength, md?.score, md?.explanation.summary]).toEqual([full?.strength, full?.score, full?.explanation.summary]);
    expect(md?.explanation.summary).not.toMatch(/not in the listed name/);
  });

  it('a feminine surname is as common as its masculine form, a patronymic as the father\'s name', () => {
    // Words of the generated table whose derived forms it lacks.
    const masculine = [...NAME_SHARE.keys()].find((w) => /^[a-z]{4,}ov$/.test(w) && !NAME_SHARE.has(`${w}a`))!;
    expect(nameShare(`${masculine}a`)).toBe(NAME_SHARE.get(masculine));
    const father = [...NAME_SHARE.keys()].find((w) => /^[a-z]{4,}[^aeiouy]$/.test(w) && !NAME_SHARE.has(`${w}ovna`) && !NAME_SHARE.has(`${w}ovich`))!;
    expect(nameShare(`${father}ovna`)).toBeGreaterThanOrEqual(NAME_SHARE.get(father)!);
    expect(nameShare(`${father}ovich`)).toBeGreaterThanOrEqual(NAME_SHARE.get(father)!);
    expect(nameShare('zzqxovich')).toBe(0);
  });
});
