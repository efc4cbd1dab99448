// `npm run bench:team [-- --seconds S --people N --batchers B]` (after `npm run build`): a team at
// work on one team server (issue 39, item 5). Starts the built service with `--team 127.0.0.1:0`
// (HTTPS, its own certificate, pinned here as a console on another desk would), seeds an
// Enterprise organisation with N people (the owner, a third admins, the rest members), signs each
// in over HTTPS and lets them work at once for S seconds, each at a person's pace (a request every
// 0.3-1.2 s): home, review queues, the ledger, lists, team, audit (admins), single screens; B of
// them also run live batch rescreens of 2,000 rows in chunks of 500, one after another.
// Prints p50/p95/p99 of the console requests (every request but a batch chunk, whose time is its
// rows'), per kind, and the batch chunks' rows per second; exits 1 when the console p95 is over
// 200 ms or any request failed or answered 5xx.
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberFlags, rng, seedOrganisation, sleep, startService, stopService, type RunningService } from './support/service';
import { listsReady, printTeamFigures, sender, signIn, teamAtWork, seedMembers } from './support/team-at-work';

const TARGET_P95_MS = 200;
const flags = numberFlags(process.argv.slice(2), { seconds: 60, people: 10, batchers: 3, seed: 39 });

function line(label: string, value: string | number): void {
  process.stdout.write(`  ${label.padEnd(44)} ${value}\n`);
}

async function main(): Promise<void> {
  const r = rng(flags.seed);
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-team-'));
  let svc: RunningService | undefined;
  try {
    const seeded = await seedOrganisation(dir, { plan: 'enterprise', credits: 100_000_000 });
    const people = await seedMembers({ email: seeded.email, password: seeded.password, role: 'owner' }, flags.people, ['--data-dir', dir]);
    svc = await startService(dir, 180_000, ['--team', '127.0.0.1:0', '--lazy-models']);
    const s = svc;
    for (let waited = 0; !/Team server listening on https:/.test(s.output()) && waited < 10_000; waited += 50) await sleep(50);
    const team = /Team server listening on (https:\/\/[\d.]+:\d+)/.exec(s.output())?.[1];
    if (!team) throw new Error(`the team server did not start:\n${s.output()}`);
    const ca = readFileSync(join(dir, 'team', 'team-cert.pem'));

    const send = sender(team, ca);
    const signedIn = await signIn(send, team, people);
    await listsReady(send, signedIn[0]!.cookie);
    process.stdout.write(`\n== a team at work: ${flags.people} people over HTTPS on ${team} for ${flags.seconds} s, ${flags.batchers} of them running 2,000-row live batches (target: console p95 <= ${TARGET_P95_MS} ms)\n`);
    const figures = await teamAtWork({ send, origin: team, people: signedIn, seconds: flags.seconds, batchers: flags.batchers, r });
    if (!printTeamFigures(line, figures, TARGET_P95_MS)) process.exitCode = 1;
  } finally {
    if (svc) await stopService(svc);
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
