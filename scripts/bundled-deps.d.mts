// Types for scripts/bundled-deps.mjs.
export const BUNDLED_DEPS: string[];
