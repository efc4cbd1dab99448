// The matcher's version, carried by every screening response (screening.matcher_version) and
// batch, so an analyst can tell a risk change caused by new matching rules from one caused by
// new lists. It is a release number, bumped by hand when the matching *code* changes, plus a
// hash of everything the matching *data* consists of: PARAMS and the name tables. Changing a
// constant or a table entry therefore changes the version without anyone remembering to.
import { createHash } from 'node:crypto';
import { COMMON_NAMES } from './common-names';
import { COMPARE_TABLES } from './compare';
import { HYPOCORISMS } from './hypocorisms';
import { NAME_SHARE, SPELLING_PAIRS } from './name-stats';
import { FINALS, INITIALS } from './mandarin';
import { PARAMS } from './params';
import { COST_TABLES } from './similarity';
import * as NAME_TABLES from './tables';
import { TITLES } from './titles';

/** Bump (semver) when the matching code changes behaviour; data changes are caught by the hash. */
export const MATCHER_RELEASE = '1.14.0';

export interface MatcherInputs {
  release: string;
  params: unknown;
  tables: Readonly<Record<string, unknown>>;
}

export const MATCHER_INPUTS: MatcherInputs = {
  release: MATCHER_RELEASE,
  params: PARAMS,
  tables: {
    ...NAME_TABLES, titles: TITLES, hypocorisms: HYPOCORISMS, mandarin: { INITIALS, FINALS }, compare: COMPARE_TABLES, costs: COST_TABLES, commonNames: COMMON_NAMES,
    nameShare: NAME_SHARE, spellingPairs: SPELLING_PAIRS,
  },
};

/** A JSON-able, key-sorted copy: Maps and Sets as arrays in their (source) order, typed arrays as arrays. */
function canonical(v: unknown): unknown {
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [canonical(k), canonical(x)]) };
  if (v instanceof Set) return { $set: [...v].map(canonical) };
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** `<release>+<12 hex of SHA-256 over params and tables>`, e.g. "1.0.0+3f9c0a1b2c4d". */
export function matcherVersion(inputs: MatcherInputs = MATCHER_INPUTS): string {
  const hash = createHash('sha256').update(JSON.stringify(canonical({ params: inputs.params, tables: inputs.tables }))).digest('hex');
  return `${inputs.release}+${hash.slice(0, 12)}`;
}

export const MATCHER_VERSION = matcherVersion();
