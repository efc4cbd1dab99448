// Types for scripts/build.mjs (plain Node, so `npm run serve` needs no TypeScript loader).
export function isBuildCurrent(): boolean;
export function build(options?: { force?: boolean; say?: (line: string) => void }): boolean;
