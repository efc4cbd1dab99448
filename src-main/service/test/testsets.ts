// The shared quality sets (name bench, cross-script pairs, rigour name forms) live outside the
// repository, in ../shared/watchlists/testsets next to it; CI always has that folder. A missing
// set is a failure with directions, never a silent skip: a quality gate that skips is no gate.
import { existsSync } from 'node:fs';
import path from 'node:path';

export function requiredTestset(file: string): string {
  if (existsSync(file)) return file;
  throw new Error(
    `Shared test set missing: ${path.resolve(file)}.\n` +
      'The name-matching quality sets come from the shared folder next to the repository ' +
      '(../shared/watchlists/testsets, e.g. /work/shared/watchlists/testsets): nomenklatura_name_bench/cases.csv, ' +
      'watchman_cross_script_pairs.csv and rigour/putin_names.txt. CI always checks it out; put it there to run these tests. ' +
      'They fail rather than skip so that a missing set is never mistaken for a passing quality gate.',
  );
}
