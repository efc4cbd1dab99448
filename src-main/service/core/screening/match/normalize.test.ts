import { describe, expect, it } from 'vitest';
import { normalizeName, toNameSchema } from './normalize';

const texts = (raw: string, schema: Parameters<typeof normalizeName>[1] = 'person'): string[] =>
  normalizeName(raw, schema).tokens.map((t) => t.text);

describe('normalizeName', () => {
  it('reorders "LAST, First" for people and marks the family name', () => {
    const n = normalizeName('PUTIN, Vladimir Vladimirovich', 'person');
    expect(n.reordered).toBe(true);
    expect(n.text).toBe('vladimir vladimirovich putin');
    expect(n.tokens.find((t) => t.text === 'putin')?.kind).toBe('family');
    // The original word positions survive the reordering.
    expect(n.tokens.find((t) => t.text === 'putin')?.index).toBe(0);
  });

  it('does not reorder organisations or a trailing legal form', () => {
    expect(normalizeName('Apple, Inc.', 'organization').reordered).toBe(false);
    expect(normalizeName('Apple, Inc.', 'unknown').reordered).toBe(false);
    expect(normalizeName('Smith, John', 'unknown').text).toBe('john smith');
  });

  it('folds case, accents and NFKC forms', () => {
    expect(texts('José Pérez')).toEqual(['jose', 'perez']);
    expect(texts('Ｖｌａｄｉｍｉｒ Erdoğan')).toEqual(['vladimir', 'erdogan']);
  });

  it('transliterates non-Latin scripts and records it', () => {
    const ru = normalizeName('Владимир Путин', 'person');
    expect(ru.text).toBe('vladimir putin');
    expect(ru.nonLatin).toBe(true);
    expect(ru.scripts).toContain('cyrillic');
    expect(normalizeName('Vladimir Putin', 'person').nonLatin).toBe(false);
    expect(normalizeName('محمد علي', 'person').tokens.every((t) => t.script === 'arabic')).toBe(true);
  });

  it('reads a one-word CJK name as family name + given name', () => {
    expect(texts('习近平')).toEqual(['xi', 'jinping']);
    // Hangul is romanised closer to the lists' McCune-Reischauer style (Kim Jong Un).
    expect(texts('김정은')).toEqual(['kim', 'jongun']);
    expect(normalizeName('김정은', 'person').tokens.map((t) => t.native)).toEqual(['김', '정은']);
    expect(normalizeName('习近平', 'person').tokens[0]?.kind).toBe('family');
  });

  it('classifies honorifics, particles, initials and patronymics', () => {
    const n = normalizeName('Dr. Abdel Fattah el-Sisi', 'person');
    expect(n.tokens.map((t) => t.kind)).toEqual(['honorific', 'given', 'given', 'particle', 'family']);
    const j = normalizeName('J.-C. Juncker', 'person');
    expect(j.tokens.map((t) => [t.text, t.kind])).toEqual([['j', 'initial'], ['c', 'initial'], ['juncker', 'family']]);
    const p = normalizeName('Vladimir Vladimirovich Putin', 'person').tokens[1];
    expect(p?.key).toBe('vladimirovich');
    expect(p?.weight).toBeLessThan(1);
    // Transliteration variants of a patronymic share a key.
    expect(normalizeName('Volodymyr Volodymyrovych', 'person').tokens[1]?.key).toBe('vladimirovich');
  });

  it('reads Md. and Mhd as the name Muhammad written short, not as two initials; M. D. and JC stay initials', () => {
    for (const name of ['Md. Jahangir Alam', 'MD JAHANGIR ALAM', 'Mhd Jahangir Alam']) {
      const [md] = normalizeName(name, 'person').tokens;
      expect([md?.kind, md?.key], name).toEqual(['given', 'muhammad']);
    }
    expect(normalizeName('M. D. Alam', 'person').tokens.map((t) => t.kind)).toEqual(['initial', 'initial', 'family']);
    expect(normalizeName('JC Alam', 'person').tokens.map((t) => t.kind)).toEqual(['initial', 'initial', 'family']);
  });

  it('recognises legal forms, including dotted and multi-word ones, with near-zero weight', () => {
    const n = normalizeName('Bowne Global Solutions, L.L.C.', 'organization');
    expect(n.tokens.at(-1)).toMatchObject({ text: 'llc', kind: 'orgtype', key: 'llc' });
    expect(n.tokens.at(-1)?.weight).toBeLessThan(0.1);
    expect(normalizeName('Strip Limited Liability Company', 'organization').tokens.at(-1)).toMatchObject({ kind: 'orgtype', key: 'llc' });
    expect(normalizeName('FABERLIC EUROPE Sp. z o.o.', 'organization').tokens.at(-1)?.key).toBe('spzoo');
    expect(normalizeName('OOO Oboronnye Initsiativy', 'organization').tokens[0]?.key).toBe('ooo');
    expect(normalizeName('Акционерное общество "Муромский завод"', 'organization').tokens[0]?.key).toBe('jsc');
    // Short ambiguous forms are not legal forms inside a person's name.
    expect(normalizeName('Ko Sa', 'person').tokens.map((t) => t.kind)).not.toContain('orgtype');
  });

  it('reads numbers: digits, number words, ordinals and Roman numerals outside person names', () => {
    expect(texts('Brigade Forty-Four', 'organization')).toEqual(['brigade', '44']);
    expect(texts('Brigade Forty 4', 'organization')).toEqual(['brigade', '44']);
    expect(normalizeName('1st International Bank', 'organization').tokens[0]).toMatchObject({ kind: 'number', key: '1' });
    expect(normalizeName('First International Bank', 'organization').tokens[0]).toMatchObject({ kind: 'number', key: '1' });
    expect(normalizeName('Carlyle Partners VII L.P.', 'organization').tokens[2]).toMatchObject({ kind: 'number', key: '7' });
    expect(normalizeName('Vladimir V. Putin', 'person').tokens[1]?.kind).toBe('initial');
  });

  it('precomputes phonetic keys, skeletons and adjacent-token joins', () => {
    const n = normalizeName('Xi Jin Ping', 'person');
    expect(n.tokens[1]?.phonetic[0]).not.toBe('');
    expect(n.joins.map((j) => j.text)).toContain('jinping');
    expect(normalizeName('محمد', 'person').tokens[0]?.skeleton).toBe(normalizeName('Mohamed', 'person').tokens[0]?.skeleton);
  });

  it('undoes digits typed for letters in a person name but keeps codes', () => {
    expect(texts('Ig0r Sech1n')).toEqual(['igor', 'sechin']);
    expect(texts('Trust 2005-AR16', 'organization')).toEqual(['trust', '2005', 'ar16']);
  });

  it('maps free-form schema labels', () => {
    expect(toNameSchema('Person')).toBe('person');
    expect(toNameSchema('LegalEntity')).toBe('organization');
    expect(toNameSchema('Vessel')).toBe('vessel');
    expect(toNameSchema('Thing')).toBe('unknown');
  });

  it('reads Greek digraphs (ου, ντ, μπ) before transliterating', () => {
    expect(texts('Πούτιν')).toEqual(['poutin']);
    expect(texts('Ντίνος Μπακογιάννης')).toEqual(['dinos', 'bakogiannis']);
    expect(texts('Βλαντίμιρ')).toEqual(['vlandimir']);
  });

  it('marks foreign names written in kana, Han (with ·) and long Hangul words as transcriptions', () => {
    const kana = normalizeName('ウラジーミル・プーチン', 'person').tokens;
    expect(kana.map((t) => [t.transcribed, t.loose])).toEqual([[true, 'PRTMR'], [true, 'PTN']]);
    const han = normalizeName('弗拉基米尔·普京', 'person').tokens;
    expect(han.map((t) => [t.transcribed, t.loose])).toEqual([[true, 'PRTMR'], [true, 'PTN']]);
    // Chinese and Japanese names proper are not transcriptions.
    expect(normalizeName('习近平', 'person').tokens.some((t) => t.transcribed)).toBe(false);
    expect(normalizeName('翼 零 斎藤', 'person').tokens.some((t) => t.transcribed)).toBe(false);
    expect(normalizeName('블라디미르 푸틴', 'person').tokens.map((t) => t.transcribed)).toEqual([true, false]);
    // The loose skeleton is the Latin name's: affricates read as dentals.
    expect(normalizeName('Vladimir Putin', 'person').tokens.map((t) => t.loose)).toEqual(['PRTMR', 'PTN']);
    expect(normalizeName('Vladimir Putin', 'person').tokens.every((t) => !t.transcribed)).toBe(true);
  });

  it('keys Hungarian gy/ty spellings of Russian names to the plain ones', () => {
    const n = normalizeName('Vlagyimir Vlagyimirovics Putyin', 'person').tokens;
    expect(n.map((t) => t.key)).toEqual(['vladimir', 'vladimirovich', 'putin']);
    // Only between vowels: "Tyler" and "Magyar" at a word edge keep their spelling.
    expect(normalizeName('Tyler', 'person').tokens[0]?.key).toBe('tyler');
  });
});
