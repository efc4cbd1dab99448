// Behaviour on small inline fixtures; the same importer on the real shipped file is tested in
// shipped-lists.test.ts (one import of each file per run).
import { describe, expect, it } from 'vitest';
import { FormatError } from './common';
import { importUnXml } from './un-xml';

const XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<CONSOLIDATED_LIST dateGenerated="2026-02-27T00:00:09.554Z">
  <INDIVIDUALS>
    <INDIVIDUAL>
      <DATAID>1</DATAID><FIRST_NAME>Ahmad</FIRST_NAME><SECOND_NAME>Oumar</SECOND_NAME><THIRD_NAME>Imhamad</THIRD_NAME><FOURTH_NAME>al-Fitouri</FOURTH_NAME>
      <UN_LIST_TYPE>Libya</UN_LIST_TYPE><REFERENCE_NUMBER>LYi.023</REFERENCE_NUMBER><GENDER>Male</GENDER><LISTED_ON>2011-06-27</LISTED_ON>
      <NAME_ORIGINAL_SCRIPT>احمد عمر امحمد الفيتوري</NAME_ORIGINAL_SCRIPT>
      <NATIONALITY><VALUE>Libya</VALUE><VALUE>Iran (Islamic Republic of)</VALUE></NATIONALITY>
      <INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Ahmed al-Fitouri</ALIAS_NAME></INDIVIDUAL_ALIAS>
      <INDIVIDUAL_ALIAS><QUALITY>Low</QUALITY><ALIAS_NAME>The Uncle</ALIAS_NAME></INDIVIDUAL_ALIAS>
      <INDIVIDUAL_ALIAS><QUALITY/><ALIAS_NAME/></INDIVIDUAL_ALIAS>
      <INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>Lased Ben Heni</ALIAS_NAME><DATE_OF_BIRTH>1969-02-05</DATE_OF_BIRTH></INDIVIDUAL_ALIAS>
      <INDIVIDUAL_ADDRESS><CITY>Zawiya</CITY><COUNTRY>Libya</COUNTRY></INDIVIDUAL_ADDRESS>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>1988-05-07</DATE></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1973</FROM_YEAR><TO_YEAR>1974</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>APPROXIMATELY</TYPE_OF_DATE><YEAR>1960</YEAR><NOTE>Sep.</NOTE></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE/><NOTE>12/03/1380 (Hijri Calendar)</NOTE></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>Passport</TYPE_OF_DOCUMENT><NUMBER>LY53FP76</NUMBER><ISSUING_COUNTRY>Libya</ISSUING_COUNTRY></INDIVIDUAL_DOCUMENT>
      <INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>National Identification
         Number</TYPE_OF_DOCUMENT><NUMBER>119880387067</NUMBER></INDIVIDUAL_DOCUMENT>
    </INDIVIDUAL>
  </INDIVIDUALS>
  <ENTITIES>
    <ENTITY>
      <DATAID>2</DATAID><FIRST_NAME>ADF</FIRST_NAME><UN_LIST_TYPE>DRC</UN_LIST_TYPE><REFERENCE_NUMBER>CDe.001</REFERENCE_NUMBER>
      <ENTITY_ALIAS><QUALITY>a.k.a.</QUALITY><ALIAS_NAME>Allied Democratic Forces</ALIAS_NAME></ENTITY_ALIAS>
      <ENTITY_ALIAS><QUALITY>f.k.a.</QUALITY><ALIAS_NAME>NALU</ALIAS_NAME></ENTITY_ALIAS>
      <ENTITY_ADDRESS><COUNTRY>Democratic Republic of the Congo</COUNTRY></ENTITY_ADDRESS>
    </ENTITY>
  </ENTITIES>
</CONSOLIDATED_LIST>`;

describe('importUnXml on a small file', () => {
  const imp = importUnXml(new TextEncoder().encode(XML));

  it('reads individuals and entities with the generated date', () => {
    expect(imp.listDate).toBe('2026-02-27');
    expect(imp.counts).toMatchObject({ total: 2, person: 1, organization: 1 });
  });

  it('reads name parts, original script, graded aliases, every DOB form and documents', () => {
    expect(imp.entities[0]).toMatchObject({
      id: 'un_sc:LYi.023',
      sourceList: 'UN Libya',
      gender: 'male',
      names: [
        { name: 'Ahmad Oumar Imhamad al-Fitouri', kind: 'primary', quality: 'strong' },
        { name: 'احمد عمر امحمد الفيتوري', kind: 'aka', quality: 'strong' },
        { name: 'Ahmed al-Fitouri', kind: 'aka', quality: 'strong' },
        { name: 'The Uncle', kind: 'aka', quality: 'weak' },
        { name: 'Lased Ben Heni', kind: 'aka', quality: 'strong' },
      ],
      dobs: ['1960-09', '1969-02-05', '1973', '1974', '1988-05-07'],
      countries: ['LY', 'IR'],
      ids: [
        { type: 'Passport', number: 'LY53FP76', country: 'LY' },
        { type: 'National Identification Number', number: '119880387067' },
      ],
      programs: ['Libya'],
      listedOn: '2011-06-27',
    });
  });

  it('keeps the listing date out of the record hash, and leaves it out where the list gives none', () => {
    const without = importUnXml(new TextEncoder().encode(XML.replace('<LISTED_ON>2011-06-27</LISTED_ON>', '')));
    expect(without.entities[0]!.listedOn).toBeUndefined();
    expect(without.entities[0]!.recordHash).toBe(imp.entities[0]!.recordHash);
    expect(imp.entities[1]!.listedOn).toBeUndefined();
  });

  it('reads entity aliases as a.k.a./f.k.a.', () => {
    expect(imp.entities[1]).toMatchObject({
      id: 'un_sc:CDe.001',
      schema: 'organization',
      names: [
        { name: 'ADF', kind: 'primary', quality: 'strong' },
        { name: 'Allied Democratic Forces', kind: 'aka', quality: 'strong' },
        { name: 'NALU', kind: 'fka', quality: 'strong' },
      ],
      countries: ['CD'],
    });
  });

  it('refuses other XML', () => {
    expect(() => importUnXml(new TextEncoder().encode('<sanctionsData/>'))).toThrow(FormatError);
  });
});
