// Every tuning constant of name matching and of the screening engine, in one place: the
// matcher's version (version.ts) hashes this object, so any change here is a new matcher.
// Read-only at run time; the benchmark scripts may read it, never write it.

export const PARAMS = {
  // ---- name comparison (compare.ts)
  /** Name score at or above which a pair is reported as a potential match (tuned on the name bench). */
  nameThreshold: 0.7,
  /** Cost of a contradiction: unmatched weight present on both sides. */
  conflict: 3,
  /** Cost of an unmatched number one side only has ("Solutions II" is another company). */
  numberConflict: 3,
  /**
   * Cost of each of two numbers that differ ("Trust 2004-1" / "2004-2", "Partners VII" /
   * "VIII"): the same family of names, so a possible match to review, not another name.
   */
  numberPair: 0.75,
  /** Cost of the unmatched part of a fuzzy pair. */
  partial: 1.5,
  /** Cost of tokens only one side has: people. */
  extraPerson: 0.2,
  /** ... organisations: an extra word there often names a different (related) entity. */
  extraOrg: 0.5,
  /** Logistic credits below this are dropped as chance resemblance. */
  creditFloor: 0.05,
  /** Shortest length ratio of two tokens for which spelling similarity is computed at all. */
  editLengthRatio: 0.5,
  /** Tokens this short (or shorter) are easy to hit by chance ("BD" / "BP")... */
  shortToken: 3,
  /** ... so they need at least this edit similarity to earn any credit. */
  shortTokenEdit: 0.8,
  /** Edit similarity at which a pair earns half credit, and how sharply credit rises there. */
  editMid: 0.74,
  editSteep: 20,
  /** Jaro-Winkler similarity at which a pair earns half credit (similar lengths only). */
  jwMid: 0.94,
  jwSteep: 40,
  /** Shortest length ratio for which Jaro-Winkler is trusted. */
  jwLengthRatio: 0.8,
  /** Shortest token (longer side) for which Jaro-Winkler is trusted. */
  jwMinLength: 4,
  phoneticCredit: 0.7,
  /**
   * Most credit a subject's common name (common-names.ts) earns against a different listed
   * spelling: enough to be reviewed as possible, never enough to be strong on its own.
   */
  commonNameCredit: 0.75,
  /**
   * Share of people (name-stats.ts, common-names.ts) from which a name word is established: two
   * different established words are two names, not a slip (compare.ts, otherName).
   */
  establishedShare: 0.0015,
  /** Credit of two different names that look alike (Hamid / Hamad): enough to review beside a date of birth. */
  otherNameCredit: 0.5,
  /** Phonetic keys collapse vowels: also require this much spelling similarity. */
  phoneticGuard: 0.7,
  /** Credit of identical consonant skeletons across scripts that drop vowels. */
  skeletonCredit: 0.9,
  /** ... when the shorter skeleton has one or two consonants only. */
  skeletonCredit1: 0.7,
  skeletonCredit2: 0.7,
  /** Skeleton similarity below which two skeletons earn nothing. */
  skeletonMin: 0.6,
  /** Skeleton similarity at which the credit line starts from zero (credit rises linearly to 1). */
  skeletonOrigin: 0.5,
  /** Edit similarity at which a two-consonant skeleton counts as spelled alike too (full credit). */
  skeletonSpelled: 0.6,
  /** Indic scripts write their vowels: below this edit similarity a skeleton match is a coincidence. */
  indicSpelling: 0.5,
  /** Least credit for an edge that joins adjacent tokens: splitting is a hypothesis. */
  joinFloor: 0.9,
  /** A joined run and a token whose lengths differ by more than this many letters... */
  joinLengthSlack: 2,
  /** ... and by more than this share of the longer one are not compared. */
  joinLengthRatio: 0.25,
  /** Fewest letters two runs of words must have to be one name split elsewhere (compare.ts, pushResplitEdges). */
  resplitMin: 6,
  /** ... and their credit: a slip of the hand, not the name as listed. */
  resplitCredit: 0.95,
  /** Credit of an initialism against the initials of a run ("U.S." / "United States"). */
  acronymCredit: 0.8,
  /** Credit of two different legal forms of the same family (corp / inc). */
  orgTypeCredit: 0.8,
  equivalentCredit: 0.98,
  /** Credit of a Mandarin name in Pinyin against the same syllables in Wade-Giles. */
  romanisationCredit: 0.9,
  /** Credit of a short form against its formal name ("Ted" / "Theodore"): a lead, not proof. */
  nicknameCredit: 0.85,
  /** Most a reading across scripts earns when one side's romanisation is a guess. */
  readingCredit: 0.95,
  /** Credit of a Baltic nominative ending ("Putinas" for Putin). */
  inflectionCredit: 0.95,
  /** Cost of the part of a full name that an initial stands for ("J." for "John"). */
  initialRemainder: 0.5,
  /** Score ceiling when only legal forms, titles, particles or initials matched. */
  insubstantialCap: 0.3,

  // ---- string similarity (similarity.ts)
  /** Edit cost of a letter inserted or deleted next to the same letter (Hanniball/Hannibal). */
  editDoubled: 0.3,
  /** Edit cost of two adjacent letters swapped (Schloz/Scholz). */
  editTranspose: 0.5,

  // ---- token weights (normalize.ts)
  /** Base weight of a token by kind: what it counts for in a comparison. */
  tokenWeights: { given: 1, family: 1, token: 1, number: 1, initial: 0.35, particle: 0.2, honorific: 0.03, orgtype: 0.05 },
  /** Patronymics ("Vladimirovich") are often omitted from a name, so they weigh a bit less. */
  patronymicWeight: 0.7,

  // ---- screening engine (engine.ts)
  /** Match score (0-100) at or above which a match is reported. */
  reportThreshold: 70,
  /** Match score at or above which an uncontradicted, corroborated match is strong. */
  strongThreshold: 85,
  /** Name score below which a candidate is not worth qualifying. */
  nameFloor: 0.6,
  /** Tokens of at least this weight are retrieval keys and vote (initials and particles do not). */
  informativeWeight: 0.3,
  /** Vote of a joined run of tokens (it has no token weight of its own). */
  joinVote: 0.5,
  /** How strongly a hit on each retrieval key kind suggests the same token: text, phonetic, skeleton, first/last half. */
  keyWeights: { t: 1, p: 0.9, s: 0.7, f: 0.6, e: 0.6, a: 0.6 } as Readonly<Record<string, number>>,
  /** Fewest letters of a word keyed by its letters in order of the alphabet (engine.ts, tokenKeys): shorter words are each other's anagrams too often. */
  swapKeyMin: 5,
  /** Weight of a key kind missing from keyWeights. */
  keyWeightOther: 0.5,
  /**
   * Share of the query's total vote a name needs to be a candidate: half. A name met by keys of less
   * than half of the query's weight (one of two words, by a weak key) was another person in nearly
   * every case, and cost most of a screen's comparisons (docs/decisions.md, "Speed of a screen").
   */
  voteShare: 0.5,
  /** IDF: least weight of the commonest token, and the list size floor of the formula. */
  idfFloor: 0.15,
  idfMinNames: 10,
  /** IDF: a token on this many names or fewer counts fully. */
  idfRare: 5,
  /** How many entities retrieval hands to the full comparison, and names compared per entity. */
  maxEntities: 32,
  namesPerEntity: 4,
  /** Most matches a response lists. */
  maxMatches: 25,
  /**
   * How much a name identifies, in powers of ten (engine.ts, information): a word carried by a
   * share p of the people of its tradition says -log10(p), a word no source knows this much.
   */
  rareWordInformation: 3.5,
  /** A name-only match (no date of birth or country agrees) is strong only on an exact full name identifying this much. */
  distinctiveName: 7.5,
  /** ... and is reported at all, unless exact, only when its matched parts identify this much. */
  reportInformation: 3.5,
  /**
   * ... and, when the subject gave no date of birth (nothing can tell two namesakes apart) and one
   * name has parts the other lacks, this much. The fairness dial of name-only screening: raised,
   * fewer customers of much-listed traditions are flagged and fewer listed people typed without
   * their middle name or patronymic, and no date of birth, are found (bench:screening prints both
   * at several values; docs/decisions.md). A whole name with a slip in it is not held to it.
   */
  nameOnlyInformation: 3.5,
  /** ... or when it is the listed name less middle names, every word met at least this closely (a slip, not a sound-alike). */
  shortNameSimilarity: 0.8,
  /**
   * A leading given name carried by this share of people where it is commonest or more
   * (Muhammad, Abdul) is a devotional or compound prefix: the person's own name is the next one.
   */
  prefixNameShare: 0.15,
  /**
   * Most a syllable says: a Mandarin syllable or a word of three letters or fewer (Li, Wei, Kim,
   * Jun) comes from a small stock that whole nations share.
   */
  syllableInformation: 2,
  /** A listed country backs a name-only match only when the name identifies this much (most customers of a tradition give its country). */
  countryInformation: 4.5,
  /** Points per (IDF-weighted) name part that one side has and the other lacks, by how telling. */
  partCost: 8,
  strictPartCost: 20,
  /** Name score from which the explanation's summary says "name matches closely". */
  closeNameScore: 0.9,
  /** Points each qualifier adds to (or takes from) a name score (see engine.ts for when each applies). */
  qualifierEffects: {
    dob_exact: 10,
    dob_year: 4,
    dob_flipped: 0,
    dob_same_year: -8,
    dob_near: -10,
    dob_mismatch: -25,
    country_match: 3,
    country_mismatch: -6,
    gender_match: 1,
    gender_mismatch: -12,
    weak_alias: -8,
    record_type_unknown: -4,
  },
};

export type Params = typeof PARAMS;
