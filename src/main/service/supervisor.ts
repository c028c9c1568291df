import { fromServiceSchema, type FromService, type ToService } from '../../common/service-ipc';
import type { ServiceState } from '../../shared/contract/service';
import { describeError, unreachable } from '../../shared/errors';
import type { Logger } from '../log';
import type { Forker, ServiceProcess } from './forker';
import type { ServiceLog } from './service-log';

export interface SupervisorTuning {
  /** How long a start may take before the service is killed and the start fails. */
  readyTimeoutMs: number;
  /** Wait before the first restart after a death; doubled per failed attempt up to maxBackoffMs (±10 % jitter). */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** Failed restarts in a row before the supervisor gives up (state crashed; "Restart service" tries again). */
  maxAttempts: number;
  /** Stop: time to drain after the stop message, then after SIGTERM, before SIGKILL. */
  stopGraceMs: number;
  killGraceMs: number;
  /** How long a request over the channel (key creation) may take. */
  requestTimeoutMs: number;
}

export const DEFAULT_TUNING: SupervisorTuning = {
  readyTimeoutMs: 30_000,
  firstBackoffMs: 500,
  maxBackoffMs: 30_000,
  maxAttempts: 8,
  stopGraceMs: 10_000,
  killGraceMs: 3_000,
  requestTimeoutMs: 15_000,
};

export interface SupervisorOptions {
  forker: Forker;
  /** The built service entry (out/service/cli.js). */
  entry: string;
  /** The service's data folder. */
  dataDir: string;
  log: ServiceLog;
  logger: Logger;
  tuning?: Partial<SupervisorTuning>;
  env?: NodeJS.ProcessEnv;
}

/** The service could not be started: the message says why (exit code and last stderr lines, or the timeout). */
export class ServiceStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceStartError';
  }
}

interface Running {
  proc: ServiceProcess;
  pid: number | undefined;
  ready: boolean;
  exited: Promise<void>;
  stderrTail: string;
}

const ended = (code: number | null): string =>
  code === null ? 'the library service was killed' : `the library service exited with code ${code}`;

type Pending = { resolve: (m: FromService) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

/**
 * Runs the library service as a supervised child (Actual's desktop-electron pattern): forks the built entry through an
 * injected forker, waits for its ready message carrying the port, restarts it with backoff when it dies (on the same
 * port, so every client's base URL stays valid), writes its output to the log file, and stops it on quit (stop
 * message, then SIGTERM, then SIGKILL). Its state is observable for the UI.
 */
export class ServiceSupervisor {
  private readonly tuning: SupervisorTuning;
  private current: Running | null = null;
  private port = 0;
  private now: ServiceState = { state: 'stopped', at: Date.now() };
  private restarts = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Bumped by restartNow and stop: a retry chain of an older generation ends instead of starting a second service. */
  private generation = 0;
  private readonly listeners = new Set<(state: ServiceState) => void>();
  private readonly pending = new Map<number, Pending>();
  private readonly terminations = new Set<Promise<void>>();
  private nextId = 1;
  private readonly log: Logger;

  constructor(private readonly options: SupervisorOptions) {
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.log = options.logger.child({ module: 'service-supervisor' });
  }

  state(): ServiceState {
    return this.now;
  }

  onState(listener: (state: ServiceState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The service's origin (http://127.0.0.1:PORT), fixed from the first ready message on. */
  get origin(): string {
    if (this.port === 0) throw new Error('the library service has not started yet');
    return `http://127.0.0.1:${this.port}`;
  }

  /** First start: resolves with the origin once the service is ready; rejects (state crashed) when it cannot start. */
  async start(): Promise<string> {
    this.stopping = false;
    try {
      await this.launch(0);
    } catch (err) {
      this.crashed(describeError(err));
      throw err;
    }
    return this.origin;
  }

  /** "Restart service": start again now, whatever the state (a running service is stopped first). */
  async restartNow(): Promise<ServiceState> {
    if (this.stopping) return this.now;
    this.generation += 1;
    this.clearRetry();
    const running = this.current;
    if (running) {
      this.current = null;
      await this.terminate(running);
    }
    try {
      await this.launch(0);
    } catch (err) {
      this.crashed(describeError(err));
    }
    return this.now;
  }

  /** Creates a key in the running service (its own accounts), without blocking this thread. */
  async createKey(account: string, kind: 'library' | 'datalake', credits?: number): Promise<string> {
    const answer = await this.request({ type: 'create-key', id: this.nextId++, account, interface: kind, credits });
    switch (answer.type) {
      case 'key-created':
        return answer.key;
      case 'failed':
        throw new Error(`the library service could not create a key: ${answer.message}`);
      case 'ready':
        throw new Error('unexpected ready message as an answer');
      default:
        throw unreachable(answer);
    }
  }

  /** Quit: no more restarts; the stop message, then SIGTERM, then SIGKILL, each after its grace time. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.generation += 1;
    this.clearRetry();
    const running = this.current;
    this.current = null;
    if (running) void this.terminate(running);
    await Promise.all([...this.terminations]);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error('the library service was stopped'));
      this.pending.delete(id);
    }
    this.setState({ state: 'stopped', at: Date.now() });
    this.options.log.close();
  }

  private launch(attempt: number): Promise<void> {
    this.setState({ state: 'starting', attempt, since: Date.now() });
    const env = { ...process.env, REELSYNC_LOG: process.env.REELSYNC_LOG ?? 'info', ...this.options.env };
    const proc = this.options.forker(
      this.options.entry,
      ['serve', '--data', this.options.dataDir, '--port', String(this.port)],
      env,
    );
    let exitedResolve = (): void => {};
    const running: Running = {
      proc,
      pid: proc.pid,
      ready: false,
      exited: new Promise((r) => (exitedResolve = r)),
      stderrTail: '',
    };
    this.current = running;
    proc.stdout?.on('data', (c: Buffer) => this.options.log.write(c));
    proc.stderr?.on('data', (c: Buffer) => {
      this.options.log.write(c);
      running.stderrTail = (running.stderrTail + c.toString()).slice(-2000);
    });
    this.options.log.note(`starting the service (attempt ${attempt}, port ${this.port || 'any'})`);
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (message: string): void => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        if (this.current === running) this.current = null;
        this.options.log.note(`start failed: ${message}`);
        reject(new ServiceStartError(message));
      };
      // A start that times out fails once its process is gone, so no failed start leaves a process behind.
      let timedOut: string | null = null;
      const timer = setTimeout(() => {
        timedOut = `the library service did not report ready within ${Math.round(this.tuning.readyTimeoutMs / 1000)} s (log: ${this.options.log.file})`;
        void this.terminate(running).finally(() => fail(timedOut ?? 'timed out'));
      }, this.tuning.readyTimeoutMs);
      proc.onMessage((raw) => {
        const parsed = fromServiceSchema.safeParse(raw);
        if (!parsed.success) {
          this.options.log.note(`ignored an invalid message from the service: ${parsed.error.message}`);
          return;
        }
        const message = parsed.data;
        if (message.type !== 'ready') return this.answer(message);
        if (running.ready) return;
        clearTimeout(timer);
        settled = true;
        running.ready = true;
        running.pid = message.pid;
        this.port = message.port;
        this.options.log.note(`ready at ${message.url} (pid ${message.pid})`);
        this.log.info({ url: message.url, pid: message.pid, attempt }, 'library service ready');
        this.setState({
          state: 'running',
          pid: message.pid,
          url: message.url,
          since: Date.now(),
          restarts: this.restarts,
        });
        resolve();
      });
      proc.onExit((code) => {
        exitedResolve();
        const tail = running.stderrTail.trim().split('\n').slice(-3).join(' | ');
        if (!running.ready) {
          if (timedOut !== null) return;
          fail(`${ended(code)} before it was ready${tail ? `: ${tail}` : ''}`);
          return;
        }
        this.onDeath(running, `${ended(code)}${tail ? `: ${tail}` : ''}`);
      });
    });
  }

  private onDeath(running: Running, reason: string): void {
    if (this.current !== running || this.stopping) return;
    this.current = null;
    this.restarts += 1;
    this.options.log.note(reason);
    this.log.warn({ reason, pid: running.pid }, 'library service died; restarting');
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.pending.delete(id);
    }
    this.scheduleRestart(1, reason);
  }

  private scheduleRestart(attempt: number, reason: string): void {
    if (this.stopping) return;
    if (attempt > this.tuning.maxAttempts) {
      this.crashed(`${reason} (gave up after ${this.tuning.maxAttempts} restarts)`);
      return;
    }
    const base = Math.min(this.tuning.firstBackoffMs * 2 ** (attempt - 1), this.tuning.maxBackoffMs);
    const delay = Math.round(base * (0.9 + Math.random() * 0.2));
    this.setState({ state: 'restarting', attempt, nextAt: Date.now() + delay, reason });
    this.options.log.note(`restart attempt ${attempt} in ${delay} ms`);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.launch(attempt).catch((err: unknown) => {
        if (generation === this.generation) this.scheduleRestart(attempt + 1, describeError(err));
      });
    }, delay);
  }

  private crashed(reason: string): void {
    if (this.stopping) return;
    this.log.error({ reason, logFile: this.options.log.file }, 'library service is down');
    this.options.log.note(`down: ${reason}`);
    this.setState({ state: 'crashed', reason, at: Date.now(), logFile: this.options.log.file });
  }

  /** Ends a process (stop message, SIGTERM, SIGKILL); stop() waits for every one under way. */
  private terminate(running: Running): Promise<void> {
    const done = this.escalate(running).finally(() => this.terminations.delete(done));
    this.terminations.add(done);
    return done;
  }

  private async escalate(running: Running): Promise<void> {
    const steps: Array<[() => void, number]> = [
      [() => running.proc.postMessage({ type: 'stop' } satisfies ToService), this.tuning.stopGraceMs],
      [() => running.proc.kill(), this.tuning.killGraceMs],
      [() => this.sigkill(running), this.tuning.killGraceMs],
    ];
    for (const [step, grace] of steps) {
      step();
      let timer: NodeJS.Timeout | undefined;
      const done = await Promise.race([
        running.exited.then(() => true),
        new Promise<false>((r) => (timer = setTimeout(() => r(false), grace))),
      ]);
      clearTimeout(timer);
      if (done) return;
    }
    this.options.log.note(`pid ${running.pid ?? '?'} did not exit after SIGKILL`);
  }

  private sigkill(running: Running): void {
    const pid = running.proc.pid ?? running.pid;
    this.options.log.note(`pid ${pid ?? '?'} ignored the stop and SIGTERM: SIGKILL`);
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private request(message: Extract<ToService, { id: number }>): Promise<FromService> {
    const running = this.current;
    if (!running?.ready) return Promise.reject(new Error('the library service is not running'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(message.id);
        reject(
          new Error(`the library service did not answer within ${Math.round(this.tuning.requestTimeoutMs / 1000)} s`),
        );
      }, this.tuning.requestTimeoutMs);
      this.pending.set(message.id, { resolve, reject, timer });
      running.proc.postMessage(message);
    });
  }

  private answer(message: Exclude<FromService, { type: 'ready' }>): void {
    const p = this.pending.get(message.id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(message.id);
    p.resolve(message);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private setState(state: ServiceState): void {
    this.now = state;
    for (const l of this.listeners) {
      try {
        l(state);
      } catch (err) {
        this.log.error({ err: describeError(err) }, 'service state listener failed');
      }
    }
  }
}
