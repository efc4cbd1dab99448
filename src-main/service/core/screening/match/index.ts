// Name matching for screening: normalise once, compare many times.
export { normalizeName, toNameSchema, type NameSchema, type NameToken, type NormalizedName, type TokenKind, type Script } from './normalize';
export {
  compareNames,
  scoreNamePair,
  DEFAULT_THRESHOLD,
  type AlignedPair,
  type AlignmentMethod,
  type CompareOptions,
  type NameComparison,
} from './compare';
export { createMatchScratch, type MatchScratch } from './compare';
export { PARAMS, type Params } from './params';
export { MATCHER_VERSION, MATCHER_RELEASE, matcherVersion, MATCHER_INPUTS, type MatcherInputs } from './version';
