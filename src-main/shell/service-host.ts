// Runs src-main/service/main.ts (built to out/main/service.js) in an Electron utilityProcess:
// the same code `npm run serve` runs, in its own process so a crash or a long synchronous
// SQLite call never freezes the window. This file knows how to start, watch and stop it;
// what to do when it dies is app.ts's policy.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { app, utilityProcess, type UtilityProcess } from 'electron';
import { loopbackOrigin } from './url-rules';

export interface ServiceHostOptions {
  entryPath: string;
  dataDir: string;
  sqliteBindingPath: string;
  resourcesDir: string;
  readyTimeoutMs: number;
  shutdownGraceMs: number;
}

export interface RunningService {
  /** `http://127.0.0.1:PORT`, no trailing slash: also the origin the window is loaded from. */
  url: string;
  port: number;
  /** Accepted once by POST /api/auth/token; a new one is minted for every start. */
  loginToken: string;
}

export interface UnexpectedExit {
  code: number;
  logTail: string;
}

export type StartFailure = 'spawn-failed' | 'exited' | 'timeout';

export class ServiceStartError extends Error {
  constructor(
    readonly failure: StartFailure,
    message: string,
    readonly logTail: string,
  ) {
    super(message);
    this.name = 'ServiceStartError';
  }
}

const SERVICE_NAME = 'Compliance Console service';
const LOG_TAIL_LINES = 60;
const KILL_WAIT_MS = 2_000;
// The service also prints its URL when ready; used only if the parentPort message never comes.
const READY_LINE = /http:\/\/127\.0\.0\.1:\d{1,5}/;

function readyUrlFromMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, url } = message as { type?: unknown; url?: unknown };
  return type === 'ready' && typeof url === 'string' ? url : null;
}

function waitFor(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export class ServiceHost {
  private child: UtilityProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | null = null;
  private readonly tail: string[] = [];
  private exitListener: ((exit: UnexpectedExit) => void) | null = null;

  constructor(private readonly options: ServiceHostOptions) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** Called when the service dies after it was ready and nobody asked it to stop. */
  onUnexpectedExit(listener: (exit: UnexpectedExit) => void): void {
    this.exitListener = listener;
  }

  logTail(lines = LOG_TAIL_LINES): string {
    return this.tail.slice(-lines).join('\n');
  }

  /** Forks the service and resolves with its URL once it reports ready. Port 0 = any free port. */
  start(port = 0): Promise<RunningService> {
    if (this.child !== null) return Promise.reject(new Error('The service is already running.'));
    const { entryPath, dataDir, sqliteBindingPath, resourcesDir, readyTimeoutMs } = this.options;
    const loginToken = randomBytes(32).toString('base64url');
    this.stopping = null;

    let child: UtilityProcess;
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      child = utilityProcess.fork(entryPath, ['--data-dir', dataDir, '--port', String(port), '--host', '127.0.0.1'], {
        env: {
          ...process.env,
          CONSOLE_SQLITE_BINDING: sqliteBindingPath,
          CONSOLE_LOGIN_TOKEN: loginToken,
          CONSOLE_RESOURCES_DIR: resourcesDir,
          CONSOLE_APP_VERSION: app.getVersion(),
        },
        serviceName: SERVICE_NAME,
        stdio: 'pipe',
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return Promise.reject(new ServiceStartError('spawn-failed', `Could not start the service: ${reason}`, this.logTail()));
    }
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));

    return new Promise<RunningService>((resolve, reject) => {
      let ready = false;
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        return true;
      };
      const onReadyUrl = (raw: string): void => {
        const origin = loopbackOrigin(raw);
        if (origin === null || !settle()) return;
        ready = true;
        resolve({ url: origin, port: Number(new URL(origin).port), loginToken });
      };
      const timer = setTimeout(() => {
        if (!settle()) return;
        const seconds = Math.round(readyTimeoutMs / 1000);
        reject(new ServiceStartError('timeout', `The service did not report ready within ${seconds} s.`, this.logTail()));
        child.kill();
      }, readyTimeoutMs);

      child.on('message', (message: unknown) => {
        const url = readyUrlFromMessage(message);
        if (url !== null) onReadyUrl(url);
      });
      this.pipeOutput(child, (line) => {
        const match = READY_LINE.exec(line);
        if (match !== null) onReadyUrl(match[0]);
      });
      child.on('error', (type, location) => this.remember(`[shell] service ${type} at ${location}`));
      child.once('exit', (code) => {
        if (this.child === child) this.child = null;
        this.remember(`[shell] service exited with code ${code}`);
        if (settle()) {
          reject(new ServiceStartError('exited', `The service exited with code ${code} before it was ready.`, this.logTail()));
          return;
        }
        if (ready && this.stopping === null) this.exitListener?.({ code, logTail: this.logTail() });
      });
    });
  }

  /** Asks the service to finish its work and exit; kills it if it is still there after the grace period. */
  stop(): Promise<void> {
    const child = this.child;
    if (child === null) return Promise.resolve();
    if (this.stopping !== null) return this.stopping;
    const exited = this.exited;
    this.stopping = (async () => {
      try {
        child.postMessage({ type: 'shutdown' });
      } catch {
        // Already gone: the exit wait below returns at once.
      }
      if (await waitFor(exited, this.options.shutdownGraceMs)) return;
      this.remember('[shell] service ignored shutdown; killing it');
      child.kill();
      await waitFor(exited, KILL_WAIT_MS);
    })();
    return this.stopping;
  }

  private remember(line: string): void {
    this.tail.push(line);
    if (this.tail.length > LOG_TAIL_LINES) this.tail.splice(0, this.tail.length - LOG_TAIL_LINES);
  }

  // Output is piped (not inherited) so a start-up failure can be shown in the error dialog;
  // it is still forwarded to the shell's own stdout/stderr for `npm start` users.
  private pipeOutput(child: UtilityProcess, onStdoutLine: (line: string) => void): void {
    const follow = (stream: NodeJS.ReadableStream | null, sink: NodeJS.WriteStream, onLine?: (line: string) => void): void => {
      if (stream === null) return;
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string | Buffer) => {
        const lines = (partial + String(chunk)).split(/\r?\n/);
        partial = lines.pop() ?? '';
        for (const line of lines) {
          this.remember(line);
          sink.write(`[service] ${line}\n`);
          onLine?.(line);
        }
      });
    };
    follow(child.stdout, process.stdout, onStdoutLine);
    follow(child.stderr, process.stderr);
  }
}
