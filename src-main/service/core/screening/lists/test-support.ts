// Shared by the list tests: where the shipped files are, and builders for small fixtures.
import { fileURLToPath } from 'node:url';

export const RESOURCES_DIR = fileURLToPath(new URL('../../../../../resources/watchlists/', import.meta.url));

/** OFAC legacy CSV as OFAC writes it: CRLF lines and the DOS end-of-file byte. */
export function ofacCsv(lines: readonly string[]): Uint8Array {
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n\u001a`);
}

/** A one-entity OFAC Enhanced XML of the consolidated (non-SDN) list, shaped like the real file. */
export const ENHANCED_XML = `<?xml version="1.0" encoding="utf-8"?>
<sanctionsData xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/ENHANCED_XML">
  <publicationInfo>
    <dataAsOf>2025-01-10T00:00:00</dataAsOf>
    <filters><sanctionsLists><sanctionsList refId="91512">Consolidated List</sanctionsList></sanctionsLists></filters>
  </publicationInfo>
  <referenceValues>
    <referenceValue refId="11102"><type>COUNTRY</type><value>Haiti</value><isoCode>HT</isoCode></referenceValue>
    <referenceValue refId="11212"><type>COUNTRY</type><value>United States</value><isoCode>US</isoCode></referenceValue>
  </referenceValues>
  <entities>
    <entity id="50476">
      <generalInfo><identityId>42008</identityId><entityType refId="600">Individual</entityType></generalInfo>
      <sanctionsLists>
        <sanctionsList refId="91868">Non-SDN Menu-Based Sanctions List</sanctionsList>
        <sanctionsList refId="91512">Consolidated List</sanctionsList>
      </sanctionsLists>
      <sanctionsPrograms><sanctionsProgram refId="91903">ILLICIT-DRUGS-EO14059</sanctionsProgram></sanctionsPrograms>
      <names>
        <name id="1"><isPrimary>true</isPrimary><isLowQuality>false</isLowQuality>
          <translations>
            <translation id="2"><isPrimary>false</isPrimary><script refId="20107">Cyrillic</script><formattedFullName>МАРТЕЛЛИ, Мишель</formattedFullName></translation>
            <translation id="3"><isPrimary>true</isPrimary><script refId="20122">Latin</script><formattedFullName>MARTELLY, Michel Joseph</formattedFullName></translation>
          </translations>
        </name>
        <name id="4"><isPrimary>false</isPrimary><aliasType refId="1400">A.K.A.</aliasType><isLowQuality>true</isLowQuality>
          <translations><translation id="5"><isPrimary>true</isPrimary><formattedFullName>Sweet Micky</formattedFullName></translation></translations>
        </name>
        <name id="6"><isPrimary>false</isPrimary><aliasType refId="1401">F.K.A.</aliasType><isLowQuality>false</isLowQuality>
          <translations><translation id="7"><isPrimary>true</isPrimary><formattedFullName>MARTELLY, Mike</formattedFullName></translation></translations>
        </name>
      </names>
      <addresses><address id="8"><country refId="11212">United States</country></address></addresses>
      <features>
        <feature id="9"><type featureTypeId="8">Birthdate</type><value>12 Feb 1961</value></feature>
        <feature id="10"><type featureTypeId="8">Birthdate</type><value></value>
          <valueDate><fromDateBegin>1958-01-01</fromDateBegin><toDateEnd>1959-12-31</toDateEnd></valueDate></feature>
        <feature id="11"><type featureTypeId="224">Gender</type><value>Male</value></feature>
        <feature id="12"><type featureTypeId="10">Nationality Country</type><value>Haiti</value><valueRefId>11102</valueRefId></feature>
        <feature id="13"><type featureTypeId="99">SWIFT/BIC</type><value>ABCDHT22</value></feature>
        <feature id="14"><type featureTypeId="98">Website</type><value>www.example.ht</value></feature>
      </features>
      <identityDocuments>
        <identityDocument id="15"><type refId="1584">National ID No.</type><documentNumber>0032768386</documentNumber><issuingCountry refId="11102">Haiti</issuingCountry></identityDocument>
      </identityDocuments>
    </entity>
  </entities>
</sanctionsData>`;
