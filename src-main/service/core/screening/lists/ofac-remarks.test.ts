import { describe, expect, it } from 'vitest';
import { parseIdPart, parseRemarks, splitRemarks } from './ofac-remarks';

describe('parseRemarks', () => {
  it('reads DOBs, nationality, gender, IDs and weak aliases', () => {
    const f = parseRemarks(
      "DOB 15 Sep 1946; alt. DOB circa 1942; POB Zvishavane, Zimbabwe; nationality Zimbabwe; alt. citizen South Africa; Gender Male; Passport AD005831 (Zimbabwe) issued 11 Jan 2018 expires 10 Jan 2028; National ID No. 63450183P67 (Zimbabwe); Website www.example.org; a.k.a. 'CROCODILE'; f.k.a. 'OLD NAME'.",
    );
    expect(f.dobs).toEqual(['1946-09-15', '1942']);
    expect(f.countries).toEqual(['ZW', 'ZA']);
    expect(f.gender).toBe('male');
    expect(f.ids).toEqual([
      { type: 'Passport', number: 'AD005831', country: 'ZW' },
      { type: 'National ID No.', number: '63450183P67', country: 'ZW' },
    ]);
    expect(f.aliases).toEqual([
      { name: 'CROCODILE', kind: 'aka', quality: 'weak' },
      { name: 'OLD NAME', kind: 'fka', quality: 'weak' },
    ]);
  });

  it('keeps apostrophes inside quoted aliases', () => {
    const f = parseRemarks("a.k.a. 'AL-QAYYIM, 'Ibn'; a.k.a. 'EL-QAIM, Ibn'; a.k.a. ''FOOPIE''; a.k.a. ''ABD AL-RAHMAN'.");
    expect(f.aliases.map((a) => a.name)).toEqual(["AL-QAYYIM, 'Ibn", 'EL-QAIM, Ibn', 'FOOPIE', "'ABD AL-RAHMAN"]);
  });

  it('reads a registration nationality and a "possibly" nationality', () => {
    expect(parseRemarks('Nationality of Registration Korea, North').countries).toEqual(['KP']);
    expect(parseRemarks('nationality possibly Palestinian;arrested 23 Apr 2002').countries).toEqual(['PS']);
  });

  it('splits on "; " but not inside a quoted alias', () => {
    expect(splitRemarks("a.k.a. 'A; B'; DOB 1960.")).toEqual(["a.k.a. 'A; B'", 'DOB 1960']);
  });
});

describe('parseIdPart', () => {
  it('takes the longest label and strips dates and the country', () => {
    expect(parseIdPart('Passport Booklet A5199819 (Pakistan)')).toEqual({ type: 'Passport Booklet', number: 'A5199819', country: 'PK' });
    expect(parseIdPart('Vessel Registration Identification IMO 7406784')).toEqual({ type: 'Vessel Registration Identification', number: 'IMO 7406784' });
    expect(parseIdPart('National ID No.: 1372584')).toEqual({ type: 'National ID No.', number: '1372584' });
    expect(parseIdPart('Registration Number HRA 738077 (Stuttgart) (Germany)')).toEqual({
      type: 'Registration Number', number: 'HRA 738077 (Stuttgart)', country: 'DE',
    });
  });

  it('ignores labels that are not identifiers', () => {
    expect(parseIdPart('Organization Established Date 1969')).toBeUndefined();
    expect(parseIdPart('Digital Currency Address - XBT 12QtD5BFwRsd')).toBeUndefined();
    expect(parseIdPart('Passport issued 21 Jun 1992')).toBeUndefined();
  });
});
