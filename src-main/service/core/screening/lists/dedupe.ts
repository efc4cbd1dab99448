// The CSL republishes OFAC's lists. When OFAC's own files are loaded too, the CSL copy of an
// OFAC record is dropped and OFAC's kept: OFAC's carries alias quality (weak a.k.a.s), the
// remarks' IDs and, in the Enhanced XML, other scripts.
//
// The match is the CSL `entity_number` = OFAC ent_num, looked up first in the OFAC source that
// publishes the row's sub-list (SDN -> us_ofac_sdn, SSI/PLC/CMIC/CAP/FSE/NS-MBS -> us_ofac_cons),
// then in the other: OFAC numbers one party once across all its lists (an entity on both the SDN
// and SSI lists has one ent_num, with the same name in both files), so a hit there is the same
// party and is already screened.
import type { ListEntity, ListImport } from '../types';
import { addSkip } from './common';
import { CSL_TREASURY_CODES, cslDuplicateReason, cslOrigin } from './csl';

export interface Deduped {
  import: ListImport;
  /** The entities that stay. */
  entities: ListEntity[];
  /** What de-duplication removed from this import, by reason. */
  skipped: Record<string, number>;
}

export const OFAC_SOURCES = ['us_ofac_sdn', 'us_ofac_cons'] as const;

/** Which OFAC source already holds a CSL row (its sub-list code and entity_number), if any. */
export type CslDuplicateCheck = (code: string, entityNumber: string) => string | undefined;

/**
 * The rule, built from the OFAC imports at hand. The loader hands it to the CSL importer so the
 * ~9,500 copies are never built (a third of start-up time otherwise); dedupeImports applies the
 * same rule to records already built.
 */
export function cslDuplicateCheck(imports: readonly ListImport[]): CslDuplicateCheck | undefined {
  const ofacIds = new Map<string, Set<string>>();
  for (const imp of imports) {
    if ((OFAC_SOURCES as readonly string[]).includes(imp.source)) {
      ofacIds.set(imp.source, new Set(imp.entities.map((e) => e.id.slice(imp.source.length + 1))));
    }
  }
  if (ofacIds.size === 0) return undefined;
  return (code, entityNumber) => {
    if (!CSL_TREASURY_CODES.includes(code) || !/^\d+$/.test(entityNumber)) return undefined;
    const order = code === 'SDN' ? OFAC_SOURCES : ([...OFAC_SOURCES].reverse() as readonly string[]);
    return order.find((s) => ofacIds.get(s)?.has(entityNumber));
  };
}

export function dedupeImports(imports: readonly ListImport[]): Deduped[] {
  const sources = new Set<string>();
  for (const imp of imports) {
    if (sources.has(imp.source)) throw new Error(`two imports of ${imp.source}: load one version per source`);
    sources.add(imp.source);
  }
  const check = cslDuplicateCheck(imports);
  return imports.map((imp) => {
    const skipped: Record<string, number> = {};
    if (imp.source !== 'us_csl' || !check) return { import: imp, entities: imp.entities, skipped };
    const entities = imp.entities.filter((e) => {
      const origin = cslOrigin(e);
      const owner = origin ? check(origin.code, origin.entityNumber) : undefined;
      if (!origin || !owner) return true;
      addSkip(skipped, cslDuplicateReason(origin.code, owner));
      return false;
    });
    return { import: imp, entities, skipped };
  });
}
