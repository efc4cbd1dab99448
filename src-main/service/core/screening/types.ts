// The in-memory shape of a watchlist record, shared by the importers (lists/) and the matching
// engine. Records of official lists are public data; once matched to a subject they are
// subject data and live only in the request that matched them.

/** The spec's list kinds. */
import type { ListKind } from '../../../../src-shared/contracts/screening';

export { LIST_KINDS, type ListKind } from '../../../../src-shared/contracts/screening';

export type EntitySchema = 'person' | 'organization' | 'vessel' | 'aircraft' | 'unknown';

export interface EntityName {
  /** As published (original script and order). */
  name: string;
  kind: 'primary' | 'aka' | 'fka' | 'nka';
  /** Lists grade aliases: OFAC "weak" a.k.a., UN quality Low/Good. Weak aliases score lower. */
  quality: 'strong' | 'weak';
}

export interface EntityId {
  type: string;
  number: string;
  country?: string;
}

export interface ListEntity {
  /** Stable across imports of the same source: `${source}:${sourceId}`. */
  id: string;
  /** Source key, e.g. us_ofac_sdn, us_ofac_cons, us_csl, un_sc, user:<list name>. */
  source: string;
  /** The list's own sub-list or programme family, e.g. "SDN", "Entity List", "UN 1267". */
  sourceList: string;
  kind: ListKind;
  schema: EntitySchema;
  names: EntityName[];
  /** 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'; ranges are expanded to their years. */
  dobs: string[];
  /** ISO 3166 alpha-2 where the source allows it, upper case. */
  countries: string[];
  gender?: 'male' | 'female';
  ids: EntityId[];
  programs: string[];
  /** SHA-256 (hex, 16 chars) of the normalised record: a cleared match stays cleared until it changes. */
  recordHash: string;
  /** When the source says the record was listed or designated ('YYYY-MM-DD'), where it says; not in the record hash. */
  listedOn?: string;
  /** PEP sources: the public offices held (current and former), for the PEP qualifiers. */
  positions?: EntityPosition[];
}

/** A public office a PEP holds or held. Dates 'YYYY-MM-DD' (or shorter), absent when unknown. */
export interface EntityPosition {
  /** As the explanation words it, e.g. "Head of government", "U.S. Senator". */
  role: string;
  /** ISO 3166 alpha-2, upper case, when the office belongs to a country. */
  country?: string;
  /** A sub-division, e.g. a U.S. state ("NY"). */
  region?: string;
  start?: string;
  end?: string;
  /** Held on the list's date (a term that had not ended, or the source lists the holder as current). */
  current: boolean;
}

/** What an import of one source file (or file set) produced. */
export interface ListImport {
  source: string;
  publisher: string;
  /** Publication date stated in the file (YYYY-MM-DD), else null. */
  listDate: string | null;
  /** SHA-256 of the input bytes (all files of the set, in a fixed order). */
  sha256: string;
  entities: ListEntity[];
  counts: { total: number; person: number; organization: number; vessel: number; aircraft: number; unknown: number };
  /** Rows skipped and why (orphans, duplicates, malformed): counts only. */
  skipped: Record<string, number>;
}
