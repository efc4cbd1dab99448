// Admin CLI over the same core as the service (no HTTP). Safe to run while the service is
// running on the same data directory: SQLite WAL with a busy timeout serialises writers.
import { parseArgs } from 'node:util';
import { PLANS, PRODUCTS, type Environment, type Plan, type Product, type Role } from '../../src-shared/catalog';
import { auditCsv, type AuditEntry } from '../../src-shared/contracts/audit';
import { Email, Password } from '../../src-shared/contracts/accounts';
import { CreateWebhookRequest, WEBHOOK_EVENTS } from '../../src-shared/contracts/webhooks';
import { isAppError } from '../../src-shared/errors';
import type { AuditActorRef } from './core/audit/audit';
import { compose, type Services } from './compose';
import { lockDataDir } from './data-lock';
import { copyToPostgres, CopyRefused } from './db/copy';
import { sqliteEngine, type Engine } from './db/engine';
import { openLedger, parseDatabaseUrl } from './db/ledger';
import { openDatabase } from './db/open';
import { createAccounts } from './core/accounts/accounts';
import { createAudit } from './core/audit/audit';
import { systemClock } from './core/clock';
import { loadInstallSecret } from './core/install-secret';
import { defaultDataDir, defaultResourcesDir, privateDir } from './paths';
import { scorePairs, screenStream } from './core/app/offline-screening';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readManifest } from './core/screening/lists/manifest';
import { OFFICIAL_SOURCES, isOfficialSource } from './core/screening/lists/sources';
import { importOfficial, importOwnList, removeOwnList, type ListImporter } from './core/app/lists';
import { addWebhook, removeWebhook } from './core/app/webhooks';
import { createKey, revokeKey } from './core/app/keys';
import { addMember, overridePlan } from './core/app/account';
import { storedLists } from './core/screening/lists/store';
import { prepareIndex } from './core/screening/service';
import { listSlug, type ListChanges } from '../../src-shared/contracts/lists';

const USAGE = `Usage: npm run cli -- <command> [options]

  init --data-dir DIR --org NAME --owner-email E --owner-password P [--owner-name N] [--plan PLAN]
  keys create --data-dir DIR --env test|live --scopes human,age,identity,compliance [--name N] [--demo] [--json]
  keys list --data-dir DIR [--json]
  keys revoke --data-dir DIR ID
  plan set --data-dir DIR PLAN
  members add --data-dir DIR --email E --password P --role admin|member [--name N] [--json]
  audit verify --data-dir DIR        (exit 0 when the chain holds; 1 naming the first bad row)
  audit export --data-dir DIR        (the whole log as CSV on stdout)
  credits grant --data-dir DIR N [--note TEXT]
  credits balance --data-dir DIR
  webhooks add --data-dir DIR --url URL --env test|live --events e1,e2 [--json]
  webhooks list --data-dir DIR [--json]
  webhooks remove --data-dir DIR ID
  webhooks deliveries --data-dir DIR ID [--json]
  lists list --data-dir DIR [--json]
  lists import --data-dir DIR --source us_ofac_sdn|us_ofac_cons|us_csl|un_sc|uk_sanctions|au_dfat|pep_us_congress|pep_us_executive|pep_wikidata_leaders FILE... [--accept-removals] [--json]
                                             (a file that removes more than 10 % of the list is held, exit code 3, until run again with --accept-removals)
  lists import --data-dir DIR --user "LIST NAME" FILE.csv [--json]
  lists remove --data-dir DIR --user "LIST NAME"
  db copy --from DIR --to postgres://…       (the installation in DIR moved to an empty PostgreSQL database; stop its service first)
  screening score-pairs < pairs.csv          (CSV schema,name1,name2 → one score per line)
  screening screen --data-dir DIR < in.ndjson (screen request bodies → response bodies)

--data-dir defaults to CONSOLE_DATA_DIR or the per-user data directory; --database postgres://… (or
CONSOLE_DATABASE_URL) works on a ledger kept on PostgreSQL instead.
Changes made here (keys, plan, members, lists, webhooks) are written to the audit log with the actor "cli".`;

class UsageError extends Error {}

/** An import's changes against the edition in use, for a person reading the terminal. */
function changesText(c: ListChanges): string {
  const lines = [`Against the edition in use (${c.before ?? 'none'} records): ${c.added} added, ${c.removed} removed, ${c.changed} changed, ${c.after} after.`];
  for (const p of c.by_program.slice(0, 10)) lines.push(`  ${p.program}: +${p.added} -${p.removed} ~${p.changed}`);
  for (const [label, list] of [['added', c.examples.added], ['removed', c.examples.removed], ['changed', c.examples.changed]] as const) {
    if (list.length) lines.push(`  ${label}: ${list.slice(0, 10).map((e) => e.name).join('; ')}${list.length > 10 ? '; …' : ''}`);
  }
  return lines.join('\n');
}

const CLI: AuditActorRef = { kind: 'cli' };

function fail(msg: string): never {
  throw new UsageError(msg);
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], what: string): T {
  if (value && (allowed as readonly string[]).includes(value)) return value as T;
  return fail(`${what} must be one of: ${allowed.join(', ')}`);
}

async function requireOrg(s: Services) {
  return (await s.accounts.organization()) ?? fail('No organization in this data directory: run `init` first');
}

async function run(argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      database: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      org: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-password': { type: 'string' },
      'owner-name': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      plan: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      note: { type: 'string' },
      url: { type: 'string' },
      source: { type: 'string' },
      user: { type: 'string' },
      events: { type: 'string' },
      demo: { type: 'boolean', default: false },
      'accept-removals': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [cmd, sub, arg] = positionals;
  if (values.help || !cmd) return USAGE;
  // Streaming commands: stdin to stdout, no database.
  if (cmd === 'screening' && sub === 'score-pairs') {
    await scorePairs(process.stdin, process.stdout);
    return '';
  }
  if (cmd === 'screening' && sub === 'screen') {
    await screenStream(process.stdin, process.stdout, defaultResourcesDir(), values['data-dir']);
    return '';
  }
  if (cmd === 'db' && sub === 'copy') return dbCopy(values.from ?? fail('db copy needs --from DIR'), values.to ?? fail('db copy needs --to postgres://…'), values.json);
  const database = values.database ?? (process.env.CONSOLE_DATABASE_URL || undefined);
  const s = await compose({ dataDir: values['data-dir'] ?? defaultDataDir(), logger: 'file', ...(database !== undefined ? { database } : {}) });
  try {
    switch (`${cmd} ${sub ?? ''}`.trim()) {
      case 'init': {
        const email = Email.safeParse(values['owner-email']);
        if (!email.success) fail('--owner-email must be an e-mail address');
        if (!Password.safeParse(values['owner-password']).success) fail('--owner-password must be 10 to 256 characters');
        if (!values.org) fail('--org is required');
        const plan = values.plan ? oneOf<Plan>(values.plan, PLANS, '--plan') : 'free';
        const { org, user } = await s.accounts.setup({
          organization: values.org, name: values['owner-name'] ?? 'Owner', email: email.data, password: values['owner-password']!, plan,
        });
        const out = { organization: { id: org.id, name: org.name, plan: org.plan }, owner: { id: user.id, email: user.email } };
        return values.json ? JSON.stringify(out) : `Created organization "${org.name}" (${org.plan}) with owner ${user.email}`;
      }
      case 'keys create': {
        const org = await requireOrg(s);
        const env = oneOf<Environment>(values.env, ['test', 'live'], '--env');
        const scopes = (values.scopes ?? fail('--scopes is required')).split(',').map((x) => oneOf<Product>(x.trim(), PRODUCTS, 'each scope'));
        const owner = await s.accounts.ownerOf(org.id);
        const c = await createKey(s, org.id, CLI, { plan: org.plan, name: values.name ?? 'CLI key', env, scopes, demo: values.demo, createdBy: owner?.id ?? null });
        const out = { id: c.key.id, api_key: c.api_key, secret: c.secret, env: c.key.env, scopes: c.key.scopes };
        return values.json
          ? JSON.stringify(out)
          : `Key ${out.id} (${out.env}; ${out.scopes.join(', ')})\n  api key: ${out.api_key}\n  secret:  ${out.secret}\nStore both now: they are not shown again.`;
      }
      case 'keys list': {
        const org = await requireOrg(s);
        const keys = await s.keys.list(org.id, org.plan);
        return values.json
          ? JSON.stringify({ keys })
          : keys.map((k) => `${k.id}  ${k.prefix}…  ${k.env}  ${k.scopes.join(',')}  ${k.revoked_at ? 'revoked' : 'active'}  ${k.name}`).join('\n') || 'No keys';
      }
      case 'keys revoke': {
        const org = await requireOrg(s);
        const id = arg ?? fail('keys revoke needs the key id');
        const row = (await s.keys.get(id)) ?? fail(`No key with id ${id}`);
        const changed = await revokeKey(s, org.id, CLI, row);
        return values.json ? JSON.stringify({ id, revoked: true }) : changed ? `Revoked ${id}` : `${id} was already revoked`;
      }
      case 'plan set': {
        const plan = oneOf<Plan>(arg, PLANS, 'plan');
        const org = await overridePlan(s, CLI, plan);
        return values.json ? JSON.stringify({ plan: org.plan }) : `Plan set to ${org.plan}`;
      }
      case 'members add': {
        const org = await requireOrg(s);
        const email = Email.safeParse(values.email);
        if (!email.success) fail('--email must be an e-mail address');
        if (!Password.safeParse(values.password).success) fail('--password must be 10 to 256 characters');
        const role = oneOf<Exclude<Role, 'owner'>>(values.role, ['admin', 'member'], '--role');
        if (await s.accounts.userByEmail(email.data)) fail(`${email.data} is already a member`);
        if (await s.accounts.anyUserByEmail(email.data)) fail(`${email.data} was removed from a team; invite it in the console to bring the account back`);
        const user = await addMember(s, org, CLI, { email: email.data, name: values.name ?? email.data, password: values.password!, role });
        return values.json ? JSON.stringify({ id: user.id, email: user.email, role: user.role }) : `Added ${user.email} as ${user.role}`;
      }
      case 'audit verify': {
        const r = await s.audit.verify();
        if (!r.ok) {
          process.exitCode = 1;
          return values.json ? JSON.stringify(r) : `Audit log broken at row ${r.first_bad_seq}: ${r.reason} (${r.rows} rows before it hold)`;
        }
        return values.json ? JSON.stringify(r) : `Audit log intact: ${r.rows} rows; last row ${r.head_seq}, hash ${r.head_hash}`;
      }
      case 'audit export': {
        const org = await requireOrg(s);
        const entries: AuditEntry[] = [];
        for (let page = 1; ; page++) {
          const p = await s.audit.page(org.id, { page, per_page: 500 });
          entries.push(...p.entries);
          if (page >= p.pages) break;
        }
        // The CSV's own line ends; no extra newline after it.
        process.stdout.write(auditCsv(entries));
        return '';
      }
      case 'credits grant': {
        const org = await requireOrg(s);
        const n = Number(arg);
        if (!Number.isSafeInteger(n) || n <= 0) fail('credits grant needs a positive whole number');
        const r = await s.credits.grant(org.id, n, values.note ?? 'Granted from the CLI');
        return values.json ? JSON.stringify(r) : `Granted ${n} credits; balance ${r.balance}`;
      }
      case 'credits balance': {
        const org = await requireOrg(s);
        const balance = await s.credits.balance(org.id);
        return values.json ? JSON.stringify({ balance }) : String(balance);
      }
      case 'webhooks add': {
        const org = await requireOrg(s);
        const parsed = CreateWebhookRequest.safeParse({
          url: values.url, env: values.env, events: (values.events ?? '').split(',').map((e) => e.trim()).filter(Boolean),
        });
        if (!parsed.success) fail(`webhooks add needs --url (https, or http to this machine), --env test|live and --events from: ${WEBHOOK_EVENTS.join(', ')}`);
        const c = await addWebhook(s, org.id, CLI, (await s.accounts.ownerOf(org.id))?.id ?? null, parsed.data);
        return values.json
          ? JSON.stringify(c)
          : `Endpoint ${c.endpoint.id} (${c.endpoint.env}) -> ${c.endpoint.url}\n  signing secret: ${c.secret}\nStore it now: it is not shown again.`;
      }
      case 'webhooks list': {
        const org = await requireOrg(s);
        const list = await s.webhooks.list(org.id);
        return values.json
          ? JSON.stringify({ endpoints: list })
          : list.map((e) => `${e.id}  ${e.env}  ${e.url}  ${e.events.join(',')}`).join('\n') || 'No webhook endpoints';
      }
      case 'webhooks remove': {
        const org = await requireOrg(s);
        await removeWebhook(s, org.id, CLI, arg ?? fail('webhooks remove needs the endpoint id'));
        return values.json ? JSON.stringify({ id: arg, removed: true }) : `Removed ${arg}`;
      }
      case 'webhooks deliveries': {
        const org = await requireOrg(s);
        const list = await s.webhooks.deliveries(org.id, arg ?? fail('webhooks deliveries needs the endpoint id'));
        return values.json
          ? JSON.stringify({ deliveries: list })
          : list.map((d) => `${d.created_at}  ${d.event}  ${d.state}  attempts=${d.attempts}  status=${d.last_status ?? '-'}  ${d.last_latency_ms ?? '-'}ms`).join('\n') || 'No deliveries';
      }
      case 'lists list': {
        // On PostgreSQL, the lists as the instances share them (the data directory may be behind).
        await s.sharedLists.pull();
        const stored = storedLists(s.config.dataDir);
        const manifest = readManifest(join(defaultResourcesDir(), 'watchlists'));
        const out = {
          shipped: manifest.sources.map((m) => ({ source: m.source, title: m.title, list_date: m.list_date, retrieval_date: m.retrieval_date, replaced: Boolean(stored.official[m.source]) })),
          imported: Object.values(stored.official),
          user: Object.values(stored.user),
        };
        return values.json
          ? JSON.stringify(out)
          : [
              ...out.shipped.map((l) => `${l.source.padEnd(14)} ${l.list_date ?? `retrieved ${l.retrieval_date}`}${l.replaced ? '  (replaced by an imported file)' : ''}  ${l.title}`),
              ...out.imported.map((l) => `${l.source.padEnd(14)} imported ${l.imported_at}  ${l.files.map((f) => f.name || f.role).join(', ')}`),
              ...out.user.map((l) => `user:${l.slug.padEnd(9)} ${l.rows} records, imported ${l.imported_at}  ${l.name}`),
            ].join('\n');
      }
      case 'lists import': {
        const files = positionals.slice(2);
        if (files.length === 0) fail('lists import needs at least one file');
        // The running service notices the new files itself (its watch of the lists folder).
        const who: ListImporter = { cli: CLI, orgId: (await s.accounts.organization())?.id ?? null };
        if (values.user) {
          const r = await importOwnList(s, who, values.user, readFileSync(files[0]!));
          const text = [`${r.ok ? 'Imported' : 'Nothing imported from'} ${files[0]} as ${r.source}: ${r.rows.imported} of ${r.rows.total} rows`, ...r.errors.slice(0, 50).map((e) => `  row ${e.row}, ${e.column}: ${e.reason}`)].join('\n');
          if (!r.ok) process.exitCode = 1;
          return values.json ? JSON.stringify(r) : text;
        }
        const source = values.source ?? fail('lists import needs --source (official list) or --user NAME (your own list)');
        if (!isOfficialSource(source)) fail(`--source must be one of: ${OFFICIAL_SOURCES.join(', ')}`);
        const r = await importOfficial(s, who, source, files.map((f) => ({ name: basename(f), bytes: readFileSync(f) })), { acceptRemovals: values['accept-removals'] });
        if (!r.ok) {
          process.exitCode = 1;
          return values.json ? JSON.stringify(r) : `Not imported: ${r.reason}`;
        }
        if (r.held) {
          // Nothing changed: the edition in use stays until the import is confirmed.
          process.exitCode = 3;
          return values.json
            ? JSON.stringify(r)
            : [`Held, not imported: ${r.reason}`, changesText(r.changes), 'Run the same command with --accept-removals to import it, or confirm it in the console (Screening → Lists).'].join('\n');
        }
        // The index of the official lists is built now and kept in the data directory, so the
        // next start screens within a second or two instead of rebuilding it (issue 36).
        const prepared = prepareIndex(join(defaultResourcesDir(), 'watchlists'), s.config.dataDir);
        return values.json
          ? JSON.stringify({ ...r, index: prepared })
          : `Imported ${r.records} records for ${r.source} (${r.format}${r.list_date ? `, list date ${r.list_date}` : ''}); the service picks it up within seconds. `
            + `Screening index prepared in ${(prepared.ms / 1000).toFixed(1)} s.\n${changesText(r.changes)}`;
      }
      case 'lists remove': {
        const name = values.user ?? fail('lists remove needs --user NAME');
        const removed = await removeOwnList(s, { cli: CLI, orgId: (await s.accounts.organization())?.id ?? null }, listSlug(name));
        if (!removed) fail(`No user list named ${name}`);
        return `Removed ${name}`;
      }
      default:
        return fail(`Unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
    }
  } finally {
    s.close();
  }
}

/**
 * `db copy --from DIR --to postgres://…`: the installation in DIR moved to an empty PostgreSQL
 * database (db/copy.ts), with the service on DIR stopped (its data lock is taken for the copy).
 * Then the audit chain is verified on PostgreSQL and its head compared with the file's.
 */
async function dbCopy(from: string, to: string, json: boolean): Promise<string> {
  const url = parseDatabaseUrl(to);
  const release = lockDataDir(privateDir(from));
  const source = openDatabase(from);
  let target: Awaited<ReturnType<typeof openLedger>> | null = null;
  try {
    target = await openLedger(from, { database: url });
    const report = await copyToPostgres(source, target.engine);
    const chain = async (engine: Engine) => {
      const accounts = createAccounts(engine, systemClock);
      return createAudit(engine, systemClock, await loadInstallSecret(engine), { byId: accounts.userById, ofOrg: accounts.usersOf }).verify();
    };
    const [before, after] = [await chain(sqliteEngine(source)), await chain(target.engine)];
    if (!after.ok || !before.ok || before.head_hash !== after.head_hash || before.rows !== after.rows) {
      process.exitCode = 1;
      return `The audit chain does not verify the same on PostgreSQL (${JSON.stringify(after)}; the file: ${JSON.stringify(before)})`;
    }
    if (json) return JSON.stringify({ rows: report.rows, rebuilt: report.derived, audit: after });
    const total = Object.values(report.rows).reduce((a, b) => a + b, 0);
    return [
      `Copied ${total} rows from ${from} to PostgreSQL (${Object.entries(report.rows).filter(([, n]) => n > 0).map(([t, n]) => `${t} ${n}`).join(', ')}).`,
      `Rebuilt and found equal: ${report.derived.join(', ')}. Audit chain intact: ${after.rows} rows, head ${after.head_hash}.`,
      'Start the service with --database (or CONSOLE_DATABASE_URL) to use it.',
    ].join('\n');
  } catch (e) {
    if (e instanceof CopyRefused) fail(e.message);
    throw e;
  } finally {
    await target?.engine.close();
    source.close();
    release();
  }
}

run(process.argv.slice(2)).then(
  (out) => {
    if (out) process.stdout.write(out + '\n');
  },
  (e: unknown) => {
    const usage = e instanceof UsageError || (e instanceof Error && String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS'));
    const msg = isAppError(e) || e instanceof Error ? e.message : String(e);
    process.stderr.write(`error: ${msg}\n`);
    process.exitCode = usage ? 2 : 1;
  },
);
