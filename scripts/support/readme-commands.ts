// The commands the README gives, and how `npm run check:readme` (scripts/readme-commands.ts) runs
// each one from a fresh clone. Pure: no I/O. `readme-commands.test.ts` holds the README to this
// table on every `npm test`: a command added to the README without a way to run it here fails.

/** One command as the README prints it: a line of a ```sh block (continuations joined) or an inline `npm …` span. */
export interface ReadmeCommand {
  text: string;
  line: number;
  inline: boolean;
}

/**
 * How a command is run:
 *   run     to the end; must exit 0 (and pass the step's own check)
 *   serve   a service: its printed URL is read (the port is never assumed), then it is stopped
 *   long    a benchmark, fuzzer or calibration: by default it must start and run `--budget`
 *           seconds (or end) without failing; `--full` waits for its end
 *   ci      the README's test command: what `.ci/run` runs on every landing; `--full` runs it too
 *   skip    cannot run on a machine like this one; `why` says so, and the script prints it
 */
export type Way = 'run' | 'serve' | 'long' | 'ci' | 'skip';

export interface Runner {
  /** Matches the command's text with its placeholders (DIR, E, P, …) as printed. */
  match: RegExp;
  way: Way;
  why?: string;
}

export const RUNNERS: readonly Runner[] = [
  { match: /^npm ci && npm run serve$/, way: 'serve' },
  { match: /^npm run serve( -- --data-dir DIR --port N)?$/, way: 'serve' },
  { match: /^npm run demo$/, way: 'serve' },
  {
    match: /^npm run serve -- --team ADDRESS:PORT$/, way: 'skip',
    why: 'needs one of this computer\'s network addresses; src-main/service/test/team-server-netns.test.ts runs it in a network namespace it makes',
  },
  {
    match: /^npm run serve -- --database postgres:\/\/USER@HOST\/DB$/, way: 'skip',
    why: 'needs a PostgreSQL server; src-main/service/test/routes/postgres.test.ts runs two instances on the cluster the tests start',
  },
  {
    match: /^npm run cli -- db copy --from DIR --to postgres:\/\/USER@HOST\/DB$/, way: 'skip',
    why: 'needs a PostgreSQL server; src-main/service/test/db-copy.test.ts runs it against the cluster the tests start',
  },
  { match: /^apt-get update && .* npm ci && npm test$/, way: 'ci' },
  { match: /^npm test$/, way: 'ci' },
  { match: /^npm ci$/, way: 'run' },
  { match: /^npm run build( -- --force)?$/, way: 'run' },
  { match: /^npm run checks$/, way: 'long' },
  { match: /^npm run (-s )?cli -- /, way: 'run' },
  { match: /^curl /, way: 'run' },
  { match: /^npm run (bench|fuzz|chaos|soak|calibrate|eval)[:\w-]*( -- --[\w-]+)?$/, way: 'long' },
  { match: /^npm run check:readme$/, way: 'skip', why: 'this is the script that runs the others' },
  { match: /^npm install -g npm@11$/, way: 'skip', why: "changes this machine's global npm; the script checks that npm is 11.19 or later instead" },
  { match: /^npm (start|run package|run native:electron)$/, way: 'skip', why: "Electron's binary and headers download from outside the npm registry, which this machine cannot reach" },
];

/** The runner for a command: the first entry whose pattern matches. */
export function runnerOf(text: string): Runner | undefined {
  return RUNNERS.find((r) => r.match.test(text));
}

/**
 * The README's commands in order: every line of a ```sh block (a trailing `\` joins the next
 * line; `# …` comments and blank lines are not commands) and every inline code span that starts
 * with `npm ` (prose such as "`npm run demo` prints a test key"). Each text once, where it is first given.
 */
export function readmeCommands(markdown: string): ReadmeCommand[] {
  const out: ReadmeCommand[] = [];
  const seen = new Set<string>();
  const add = (text: string, line: number, inline: boolean) => {
    if (text === '' || seen.has(text)) return;
    seen.add(text);
    out.push({ text, line, inline });
  };
  const lines = markdown.split('\n');
  let block: string | null = null;
  let pending = '';
  let pendingLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const fence = /^```(\w*)/.exec(raw);
    if (fence) {
      block = block === null ? fence[1]! : null;
      continue;
    }
    if (block === 'sh') {
      if (pending === '') pendingLine = i + 1;
      const code = withoutComment(raw).trimEnd();
      if (code.trim().startsWith('#')) continue;
      if (code.endsWith('\\')) {
        pending += `${code.slice(0, -1).trim()} `;
        continue;
      }
      add(`${pending}${code.trim()}`.trim(), pendingLine, false);
      pending = '';
    } else if (block === null) {
      for (const m of raw.matchAll(/`(npm [^`]+)`/g)) add(m[1]!.trim(), i + 1, true);
    }
  }
  return out;
}

/** The line without a shell comment: a `#` after white space, outside quotes. */
function withoutComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Output redirected to a file from npm must not carry npm's banner: `npm run -s` (or `npm -s run`). */
export function redirectsWithoutSilent(text: string): boolean {
  return /(^|&&\s*)npm run (?!-s\b)/.test(text) && /\s>\s*\S/.test(text);
}
