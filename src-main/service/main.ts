// Headless entry: `npm run serve` runs this, and the Electron shell forks the same file.
// Listens on loopback only, prints the URL once ready, shuts down cleanly on SIGTERM.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compose, type Services } from './compose';
import { databasePoolOption, parseDatabaseUrl } from './db/ledger';
import { checkpointOnTimer } from './db/checkpoints';
import { createApp } from './http/app';
import { parseTrustProxy } from './http/proxy';
import { createListener, listenOn } from './http/listener';
import { createLogger } from './log';
import { lockDataDir } from './data-lock';
import { defaultConsoleDir, defaultDataDir, defaultHostedDir, defaultWidgetDir, privateDir } from './paths';
import { seedDemo } from './demo';
import { ownCertificate, type ServerCertificate } from './core/onsite/certificate';

interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const DEFAULT_PORT = 4310;

function inUse(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'EADDRINUSE';
}

/** Closed by the exit handler that removes a demo's temporary directory. */
let opened: Services | undefined;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'console-dir': { type: 'string' },
      'hosted-dir': { type: 'string' },
      'widget-dir': { type: 'string' },
      demo: { type: 'boolean', default: false },
      // The origin hosted links, QR codes and the age gate's script tag use when the on-site server
      // is not running: a reverse proxy or tunnel in front of the loopback listener.
      'public-url': { type: 'string' },
      // The face and document models load at the first request that needs them, not at start:
      // a service that will screen only (the console's end-to-end tests, a screening-only desk)
      // spares their ~4 s of CPU and their memory.
      'lazy-models': { type: 'boolean', default: false },
      // Team server mode (issue 39): the API and the console over HTTPS on one of this computer's
      // network addresses as well, for the team's consoles at other desks; the loopback listener
      // stays. `--team-cert`/`--team-key`: the organisation's own certificate (PEM) and key.
      team: { type: 'string' },
      'team-cert': { type: 'string' },
      'team-key': { type: 'string' },
      // A reverse proxy in front of the service (http/proxy.ts): its addresses, whose
      // X-Forwarded-For/-Proto/-Host are read. Off by default: anyone can write those headers.
      'trust-proxy': { type: 'string' },
      // The ledger on PostgreSQL (issue 40), shared by several instances behind a load balancer;
      // also CONSOLE_DATABASE_URL (a URL with a password is better kept out of the process list).
      database: { type: 'string' },
    },
    strict: true,
  });
  const host = values.host;
  if (!LOOPBACK.has(host)) throw new Error(`--host must be a loopback address (got ${host}); to serve a team on the network, use --team ADDRESS[:PORT]`);
  const team = values.team === undefined ? undefined : teamOption(values.team, values['team-cert'], values['team-key']);
  if (team === undefined && (values['team-cert'] !== undefined || values['team-key'] !== undefined)) throw new Error('--team-cert and --team-key go with --team ADDRESS[:PORT]');
  const trustProxy = values['trust-proxy'] === undefined ? [] : parseTrustProxy(values['trust-proxy']);
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be 0..65535');
  // A demo, or a service on the default port, moves to a free port when the port is taken. A port
  // asked for by name is refused instead: clients configured for it must not reach another process.
  const mayMove = values.demo || values.port === undefined;
  const database = values.database ?? (process.env.CONSOLE_DATABASE_URL || undefined);
  if (database !== undefined) parseDatabaseUrl(database);
  // The demo writes its history straight into the SQLite file it makes.
  if (values.demo && database !== undefined) throw new Error('--demo runs on its own SQLite file: leave out --database (and CONSOLE_DATABASE_URL)');

  // The demo's own temporary directory goes when the demo stops, whichever way it stops.
  const ownDir = values.demo && values['data-dir'] === undefined;
  const dataDir = values['data-dir'] ?? (values.demo ? mkdtempSync(join(tmpdir(), 'compliance-console-demo-')) : defaultDataDir());
  if (ownDir) {
    process.on('exit', () => {
      opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
  }
  if (values.demo && readdirSafe(dataDir).length > 0) throw new Error(`--demo needs an empty data directory: ${dataDir}`);
  // One service per data directory (data-lock.ts): a second start stops here, naming the first.
  const releaseLock = lockDataDir(privateDir(dataDir));
  process.on('exit', releaseLock);

  const services = await compose({
    dataDir,
    logger: createLogger({ dataDir, stdout: false }),
    loginToken: process.env.CONSOLE_LOGIN_TOKEN,
    nativeBinding: process.env.CONSOLE_SQLITE_BINDING,
    consoleDir: values['console-dir'] ?? defaultConsoleDir(),
    hostedDir: values['hosted-dir'] ?? defaultHostedDir(),
    widgetDir: values['widget-dir'] ?? defaultWidgetDir(),
    version: process.env.CONSOLE_APP_VERSION ?? process.env.npm_package_version,
    ...(values['public-url'] !== undefined ? { publicUrl: values['public-url'] } : {}),
    ...(team ? { team } : {}),
    ...(database !== undefined ? { database } : {}),
    ...(databasePoolOption(process.env.CONSOLE_DATABASE_POOL)),
  });
  opened = services;
  // Screening loads first, in its worker, while this thread opens the data, seeds a demo and starts
  // listening. The face models load and warm in their worker threads (at a lower priority) once
  // screening is ready or has failed: on two cores, loading them beside the index held screening
  // back; requests that need a face queue until a worker is ready (and start it when lazy).
  const screeningLoaded = services.screening.start();
  screeningLoaded.then(
    (l) => {
      services.logger.info('lists_loaded', { load_ms: l.timings.load_ms, index_ms: l.timings.index_ms, snapshot: l.timings.snapshot, names: l.stats.names });
    },
    (e: unknown) => services.logger.error('lists_failed', { name: e instanceof Error ? e.name : 'unknown' }),
  );
  // The document reader loads once a face worker is warm (or 5 s after the faces started): loading
  // both at once on two cores put the first liveness answer at 2.0 s instead of 1.4 s. A document
  // request before then starts the reader itself.
  if (!values['lazy-models']) {
    const startModels = () => {
      services.faces.start();
      const waitingSince = Date.now();
      const readerAfterFaces = setInterval(() => {
        if (services.faces.stats().ready > 0 || Date.now() - waitingSince > 5000) {
          clearInterval(readerAfterFaces);
          services.documents.start();
        }
      }, 100);
      readerAfterFaces.unref();
    };
    void screeningLoaded.then(startModels, startModels);
  }
  // Attempts cut off by a crash of the previous run would otherwise answer
  // IDEMPOTENCY_KEY_IN_PROGRESS to every retry for minutes.
  const released = await services.idempotency.releaseInProgress();
  if (released > 0) services.logger.info('idempotency_released', { count: released });
  const demo = values.demo ? await seedDemo(services) : undefined;
  const { app } = createApp(services, { trustProxy });

  const server = createListener(app.fetch);
  let actualPort: number;
  try {
    actualPort = await listenOn(server, host, port);
  } catch (e) {
    if (!inUse(e)) throw e;
    if (!mayMove) throw new Error(`port ${port} on ${host} is in use. Stop what uses it, or pass --port 0 for any free port.`);
    actualPort = await listenOn(server, host, 0);
    process.stdout.write(`Port ${port} is in use; using free port ${actualPort} instead.\n`);
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  // Links are built on the address this listener bound, never on a request's Host header; the
  // on-site server comes back when it was left running (an address gone is logged, not fatal).
  const started = services.listening(url);
  if (team) {
    // The team server was asked for: a start that cannot give it stops here, saying why.
    try {
      await started;
    } catch (e) {
      throw new Error(`the team server could not start on ${team.host}:${team.port}: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else {
    void started;
  }
  if (demo) {
    process.stdout.write(
      [
        'Compliance Console demo (TEST MODE, offline)',
        `  data directory: ${dataDir} (removed when the demo stops)`,
        `  login:          ${demo.email} / ${demo.password}`,
        ...demo.keys.map((k) => `  ${k.name}: ${k.api_key} (secret ${k.secret})`),
        '',
      ].join('\n'),
    );
  }
  if (!services.config.consoleDir) process.stdout.write('Console not built (run `npm run build`): serving the API only.\n');
  process.stdout.write(`Compliance Console service listening on ${url}\n`);
  const teamStatus = services.teamServer.status();
  if (teamStatus.running) {
    process.stdout.write(
      `Team server listening on ${teamStatus.url} (${teamStatus.certificate === 'own' ? 'your certificate' : 'certificate made on this computer'}, `
        + `SHA-256 fingerprint ${teamStatus.fingerprint})\n`,
    );
  }
  parentPort()?.postMessage({ type: 'ready', url });
  services.logger.info('listening', { port: actualPort });
  // The demo's history is written once the URL is out (the reports show it a second later).
  if (demo) setImmediate(() => demo.history());

  // Report exports: jobs a previous run left running are recovered, expired files removed, and
  // queued jobs rendered in the export worker from now on.
  await services.exports.start();
  // Abandoned batch rescreens end after their idle window even when nobody calls (and say so in the audit log).
  services.batches.start();
  // The SQLite log is checkpointed on a timer, never inside a commit whose result is still to be sent.
  const checkpoints = services.embedded ? checkpointOnTimer(services.db, { onError: () => services.logger.error('checkpoint_failed') }) : null;
  // Webhook deliveries: a slow receiver holds its own slots, never the next lease.
  const deliveries = services.webhooks.startSending({ onError: () => services.logger.error('webhook_dispatch_failed') });
  // Lists imported by the CLI while the service runs are picked up within a few seconds.
  const listWatch = setInterval(() => {
    services.screening.refresh().then(
      (changed) => changed && services.logger.info('lists_reloaded'),
      () => services.logger.error('lists_reload_failed'),
    );
  }, 5000);
  listWatch.unref();
  const maintenance = setInterval(() => {
    services.accounts.purgeExpiredSessions().catch(() => services.logger.error('session_purge_failed'));
    services.idempotency.purgeExpired().catch(() => services.logger.error('idempotency_purge_failed'));
    services.webhooks.purgeOldEvents().catch(() => services.logger.error('webhook_purge_failed'));
    services.sweepRateBuckets().catch(() => services.logger.error('rate_bucket_sweep_failed'));
  }, 3600_000);
  maintenance.unref();

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info('shutdown', { signal });
    clearInterval(maintenance);
    clearInterval(listWatch);
    checkpoints?.stop();
    server.close(() => {
      void deliveries.stop().finally(() => {
        services.close();
        process.exit(0);
      });
    });
    // Keep-alive connections must not hold the process open forever.
    setTimeout(() => {
      services.close();
      process.exit(0);
    }, 3000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  parentPort()?.on('message', (e) => {
    if (typeof e.data === 'object' && e.data !== null && (e.data as { type?: unknown }).type === 'shutdown') shutdown('parent');
  });
}

function parentPort(): ParentPort | undefined {
  return (process as unknown as { parentPort?: ParentPort }).parentPort;
}

/** `--team ADDRESS[:PORT]` (port 8443 by default) and the organisation's certificate files, read and checked now. */
function teamOption(raw: string, certFile: string | undefined, keyFile: string | undefined): { host: string; port: number; own?: ServerCertificate } {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(raw.trim());
  if (!m) throw new Error(`--team must be one of this computer's IPv4 addresses, with a port if you like (got ${raw}): --team 192.168.1.20:8443`);
  const port = m[2] === undefined ? 8443 : Number(m[2]);
  if (port > 65535) throw new Error('--team port must be 0..65535');
  if ((certFile === undefined) !== (keyFile === undefined)) throw new Error('--team-cert and --team-key go together: the certificate and its key');
  if (certFile === undefined || keyFile === undefined) return { host: m[1]!, port };
  let own: ServerCertificate;
  try {
    own = ownCertificate(readFileSync(certFile, 'utf8'), readFileSync(keyFile, 'utf8'));
  } catch (e) {
    throw new Error(`--team-cert/--team-key: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { host: m[1]!, port, own };
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

main().catch((e: unknown) => {
  // Only the message: a stack or object dump could carry request data.
  process.stderr.write(`Compliance Console service failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
