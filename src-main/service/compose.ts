// The only place where the service's objects are constructed and wired.
import { openLedger } from './db/ledger';
import type { Db } from './db/open';
import { createAccounts } from './core/accounts/accounts';
import { createKeys } from './core/keys/keys';
import { createCredits } from './core/credits/credits';
import { createLedger } from './core/verification/ledger';
import { createBilling } from './core/verification/billing';
import { createIdempotency } from './core/idempotency/idempotency';
import { memoryBuckets, sharedBuckets } from './core/rate-limit/token-bucket';
import { createKeyThrottle } from './core/rate-limit/key-throttle';
import { createWebhooks, type Fetch } from './core/webhooks/webhooks';
import { systemClock, type Clock } from './core/clock';
import { createLogger, silentLogger, type Logger } from './log';
import { createScreening } from './core/screening/service';
import { withFreshness } from './core/screening/lists/freshness';
import { createSharedLists } from './core/screening/lists/shared';
import { createBatches } from './core/screening/batch';
import { auditExpiry } from './core/app/batch';
import { createGate } from './jobs/gate';
import { createLoginThrottle } from './core/accounts/login-throttle';
import { createScreenPool } from './core/screening/pool';
import { loadInstallSecret } from './core/install-secret';
import { createAudit, SYSTEM } from './core/audit/audit';
import { createTeamActivity } from './core/accounts/team-activity';
import { createTeam } from './core/accounts/team';
import { createOrganization } from './core/accounts/organization';
import { createReview } from './core/review/review';
import { defaultResourcesDir } from './paths';
import { createDocumentReader, type DocumentReader, type DocumentReaderOptions } from './core/documents/pool';
import { createReportStore } from './core/documents/report-store';
import { createHostedSessions } from './core/hosted/sessions';
import { createPublishedFlows } from './core/hosted/flows';
import { createOnsite, createTeamServer } from './http/onsite';
import { createListenerSetting } from './core/onsite/setting-repo';
import type { ServerCertificate } from './core/onsite/certificate';
import { createPublicOrigin, parsePublicUrl } from './core/public-origin';
import { createPublicUrlSetting } from './core/public-url-repo';
import { createFacePool, type FacePool, type FacePoolOptions } from './core/faces/pool';
import { createVerificationTokens } from './core/verification/tokens';
import { createSelfieChecks } from './core/age-gate/selfie-checks';
import { createAgeGateStores } from './core/age-gate/stores';
import { createAgeGateAttempts } from './core/age-gate/attempts';
import { AGE_GATE_ATTEMPTS_PER_HOUR } from '../../src-shared/contracts/age-gate';
import { createReportFlags, type FlagOverrides } from './core/reports/flags';
import { createReports } from './core/reports/reports';
import { createReportChanges } from './core/reports/changes';
import { createExports, type BrandingSource, type BundleSource } from './core/exports/exports';
import { createRenderRunner, type RunnerOptions } from './core/exports/runner';
import { createStorage, type StorageOptions } from './core/storage/storage';

export interface ComposeOptions {
  dataDir: string;
  clock?: Clock;
  /** One-time login token handed to the desktop window by the shell. */
  loginToken?: string;
  nativeBinding?: string;
  /** Built console (out/renderer); when absent the service serves the API only. */
  consoleDir?: string;
  /** Built hosted verification page (out/hosted); when absent `/hosted/v/:token` says it is not built. */
  hostedDir?: string;
  /** Built storefront widget (out/widget); when absent `/widget/age-gate.js` says it is not built. */
  widgetDir?: string;
  logger?: Logger | 'file';
  version?: string;
  /** Shipped watchlists and other resources; defaults to CONSOLE_RESOURCES_DIR or <app>/resources. */
  resourcesDir?: string;
  /** Outgoing HTTP for webhook deliveries (tests pass a recorder). */
  fetch?: Fetch;
  /** The face workers (size, queue); tests pass their own. */
  faces?: Omit<FacePoolOptions, 'log'>;
  documents?: Omit<DocumentReaderOptions, 'log'>;
  /**
   * Tests: wraps the face pool and the document reader (route tests replay recorded model
   * outputs through this: test/recorded-models.ts). The service never passes it.
   */
  models?: { faces?: (pool: FacePool) => FacePool; documents?: (reader: DocumentReader) => DocumentReader };
  /**
   * The origin the links it hands out use when the on-site server is not running (`--public-url`):
   * a proxy or tunnel in front of the loopback listener. Absent: the loopback listener's own address.
   */
  publicUrl?: string;
  /**
   * The team server (`--team HOST[:PORT]`, issue 39): started on that address when the service
   * listens, with the organisation's own certificate when one was given, and kept on (a service
   * started without the flag brings it back while it is left on). Absent: as left in Settings.
   */
  team?: { host: string; port: number; own?: ServerCertificate };
  /** Pins REPORTING_ENABLED / REPORT_EXPORTS_ENABLED instead of reading the environment (tests). */
  reportFlags?: FlagOverrides;
  /** Report exports: tests may pass their own report source, branding or an in-process renderer. */
  exports?: { bundle?: BundleSource; branding?: BrandingSource; runner?: RunnerOptions; leaseMs?: number };
  /** The ledger on PostgreSQL (`--database`, CONSOLE_DATABASE_URL): a postgres:// URL. Absent: the data directory's SQLite file. */
  database?: string;
  /** Connections this instance keeps to PostgreSQL at most (CONSOLE_DATABASE_POOL; 10 by default). */
  databasePool?: number;
  /** Free space on the data directory's disk: statfs, read at most once a second, by default (tests simulate a full disk). */
  storage?: StorageOptions;
}

export async function compose(opts: ComposeOptions) {
  // A bad --public-url stops the start before anything is opened.
  const publicUrl = opts.publicUrl === undefined ? undefined : parsePublicUrl(opts.publicUrl);
  const clock = opts.clock ?? systemClock;
  // The ledger: the data directory's SQLite file, or PostgreSQL (issue 40). Repositories run on either engine.
  const { engine, sqlite } = await openLedger(opts.dataDir, { database: opts.database, pool: opts.databasePool, nativeBinding: opts.nativeBinding });
  let closed = false;
  const storage = createStorage(opts.dataDir, opts.storage);
  const logger = opts.logger === 'file' ? createLogger({ dataDir: opts.dataDir, stdout: false }) : (opts.logger ?? silentLogger);
  const accounts = createAccounts(engine, clock, opts.loginToken ? { loginToken: opts.loginToken } : {});
  const secret = await loadInstallSecret(engine);
  const audit = createAudit(engine, clock, secret, { byId: accounts.userById, ofOrg: accounts.usersOf });
  const review = createReview(engine, clock, { accounts, audit, secret });
  const team = createTeam(engine, clock, accounts, audit);
  const teamActivity = createTeamActivity(engine);
  const organization = createOrganization(engine, clock, audit, opts.dataDir);
  const keys = createKeys(engine, clock);
  const credits = createCredits(engine, clock);
  const ledger = createLedger(engine, audit.clientRefHmac);
  const idempotency = createIdempotency(engine, clock, secret);
  const webhooks = createWebhooks(engine, clock, { ...(opts.fetch ? { fetch: opts.fetch } : {}), privateHosts: organization.webhookPrivateHosts });
  const reports = createReports(engine, clock, { flags: createReportFlags(opts.reportFlags), balance: (orgId) => credits.balance(orgId) });
  // Figures an instance cached are forgotten when any instance records rows (reports/changes.ts).
  const reportChanges = createReportChanges(engine, (orgId) => reports.invalidate(orgId), (m) => logger.error(m));
  const billing = createBilling(engine, clock, credits, idempotency, webhooks.emitInTransaction, (orgId) => reportChanges.recorded(orgId));
  // Rate limits and throttles: this process's own on SQLite (one process serves the file); shared
  // by every instance on PostgreSQL, so they hold for the organisation, not per instance.
  const shared = (space: string) => (sqlite ? undefined : sharedBuckets(engine, clock, secret, space));
  const localLimiter = memoryBuckets(clock);
  const limits = shared('limits');
  const limiter = limits ?? localLimiter;
  const loginThrottle = createLoginThrottle(clock, secret, shared('login'));
  const keyThrottle = createKeyThrottle(clock, shared('wrong-keys'));
  // The lists are loaded (and reloaded) in the screening worker; this thread holds their meta.
  const pool = createScreenPool(opts.resourcesDir ?? defaultResourcesDir(), opts.dataDir, (m, f) => logger.info(m, f));
  // Screening requests are worked a few at a time on the HTTP thread (their parsing, billing and
  // answer; the screening itself is in the worker), so a burst never starves other requests.
  const screenGate = createGate(4);
  // On PostgreSQL the lists are the same on every instance (lists/shared.ts): brought in before each load.
  const sharedLists = createSharedLists(engine, opts.dataDir, () => new Date(clock.now()), (m, f) => logger.info(m, f));
  const screening = createScreening(opts.resourcesDir ?? defaultResourcesDir(), opts.dataDir, pool.load, () => sharedLists.pull().catch((e: unknown) => {
    logger.error('lists_pull_failed', { name: e instanceof Error ? e.name : 'unknown' });
  }));
  let stopFollowing: (() => Promise<void>) | null = null;
  let stopReportChanges: (() => Promise<void>) | null = null;
  const batches = createBatches({
    clock, billing, balance: (orgId) => credits.balance(orgId), pool, reviewKey: review.reviewKey, log: (m, f) => logger.info(m, f),
    onExpire: (e) => auditExpiry(audit, e),
  });
  // The face models run in worker threads, loaded when the service starts (main.ts) or on first use.
  const realFaces = createFacePool({ ...opts.faces, log: (m, f) => logger.info(m, f) });
  const realDocuments = createDocumentReader({ ...opts.documents, log: (m, f) => logger.info(m, f) });
  const faces = opts.models?.faces?.(realFaces) ?? realFaces;
  const documents = opts.models?.documents?.(realDocuments) ?? realDocuments;
  const tokens = createVerificationTokens(secret, clock);
  // KYC-plus screening results held in memory for the report PDF (not the reporting API).
  const kycReports = createReportStore(() => clock.now());
  const hosted = createHostedSessions(engine, clock);
  const flows = createPublishedFlows(engine, clock);
  const ageGate = {
    stores: createAgeGateStores(engine, clock), attempts: createAgeGateAttempts(clock, AGE_GATE_ATTEMPTS_PER_HOUR), selfieChecks: createSelfieChecks(engine, clock),
  };
  const exports = createExports(engine, clock, {
    lockOrg: accounts.repo.lockOrg,
    open: () => !closed && (sqlite?.open ?? true),
    bundle: opts.exports?.bundle ?? ((type, who, params) => reports.bundle(type, who, params)),
    enabled: () => reports.flags.exportsEnabled(),
    branding: opts.exports?.branding ?? ((orgId) => organization.branding(orgId)),
    lists: async (orgId, now) => withFreshness(screening.current()?.versions ?? [], await organization.listFreshness(orgId), now),
    runner: createRenderRunner({ ...opts.exports?.runner, log: (m, f) => logger.info(m, f) }),
    ...(opts.exports?.leaseMs !== undefined ? { leaseMs: opts.exports.leaseMs } : {}),
    storage,
    log: (m, f) => logger.info(m, f),
  });
  const onsite = createOnsite({ dataDir: opts.dataDir, log: (m, f) => logger.info(m, f), setting: createListenerSetting(engine, clock, 'onsite_setting') });
  const teamServer = createTeamServer({
    dataDir: opts.dataDir, log: (m, f) => logger.info(m, f), setting: createListenerSetting(engine, clock, 'team_server_setting'), ...(opts.team?.own ? { own: opts.team.own } : {}),
  });
  const publicUrlSetting = createPublicUrlSetting(engine, clock);
  const origin = createPublicOrigin({ onsite: onsite.origin, team: teamServer.origin, setting: publicUrlSetting.current, ...(publicUrl !== undefined ? { publicUrl } : {}) });
  return {
    organization, storage, faces, documents, kycReports, reports, exports, hosted, flows, ageGate, onsite, teamServer, origin, publicUrlSetting, tokens, engine, clock, logger, accounts, keys, credits, ledger, idempotency, billing, limiter, localLimiter, loginThrottle, keyThrottle, webhooks, screening, screenGate, batches, pool, audit, review, team, teamActivity, sharedLists,
    config: { dataDir: opts.dataDir, resourcesDir: opts.resourcesDir ?? defaultResourcesDir(), consoleDir: opts.consoleDir, hostedDir: opts.hostedDir, widgetDir: opts.widgetDir, version: opts.version ?? '0.1.0' },
    /**
     * The loopback listener is up at `url` (main.ts; the test harness gives the address it calls):
     * links are built on it (never on a request's Host), and the on-site server comes back when it
     * was left running (an address no longer on this computer is logged; the start goes on).
     */
    async listening(url: string): Promise<void> {
      origin.listening(url);
      // Lists another instance imports are brought in and loaded as they are shared (PostgreSQL).
      stopFollowing ??= await sharedLists.follow(() => {
        screening.refresh().then(
          (changed) => changed && logger.info('lists_reloaded', { shared: true }),
          () => logger.error('lists_reload_failed'),
        );
      });
      stopReportChanges ??= await reportChanges.follow();
      await publicUrlSetting.load();
      const st = await onsite.resume();
      // Back without anyone acting: the service started it, for the install's organisation.
      const org = await accounts.organization();
      if (st.running && org) await audit.record({ orgId: org.id, actor: SYSTEM, action: 'onsite.started', to: `${st.host}:${st.port}` });
      // The team server: where `--team` says (a failure stops the start: its operator asked for
      // it), else as it was left. Either way the service started it.
      const team = opts.team ? await teamServer.start(opts.team.host, opts.team.port) : await teamServer.resume();
      if (team.running && org) await audit.record({ orgId: org.id, actor: SYSTEM, action: 'team_server.started', to: `${team.host}:${team.port}` });
    },
    /** Removes the shared rate-limit buckets full again, of every space (PostgreSQL; SQLite's are in memory). */
    sweepRateBuckets: (): Promise<number> => limits?.sweep() ?? Promise.resolve(0),
    /** The SQLite connection (tests, the demo's history, benches); there is none on PostgreSQL. */
    get db(): Db {
      if (!sqlite) throw new Error('the ledger is on PostgreSQL: there is no SQLite file');
      return sqlite;
    },
    /** Whether the ledger is the embedded SQLite file. */
    embedded: sqlite !== null,
    close(): void {
      closed = true;
      batches.stop();
      void faces.stop();
      void documents.stop();
      void onsite.close();
      void teamServer.close();
      void exports.stop();
      void stopFollowing?.();
      void stopReportChanges?.();
      void pool.stop();
      if (sqlite?.open) sqlite.close();
      else if (!sqlite) void engine.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof compose>>;
