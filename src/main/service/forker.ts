import { fork } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * One started service process, whatever started it: Electron's utilityProcess in the desktop app, a Node child
 * process in the web mode and the CLI. Only what both offer: a message channel, an exit, SIGTERM (a utilityProcess
 * has no other signal; the supervisor escalates with process.kill on the pid), piped stdout and stderr.
 */
export interface ServiceProcess {
  readonly pid: number | undefined;
  readonly stdout: Readable | NodeJS.ReadableStream | null;
  readonly stderr: Readable | NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

/** Starts the service's built entry with arguments and environment. */
export type Forker = (modulePath: string, args: string[], env: NodeJS.ProcessEnv) => ServiceProcess;

/** Plain Node (web mode, CLI): child_process.fork with an IPC channel; no loader flags of the parent are passed on. */
export const nodeForker: Forker = (modulePath, args, env) => {
  const child = fork(modulePath, args, {
    env,
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (message) => {
      if (child.connected) child.send(message as object);
    },
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code) => listener(code)),
    kill: () => void child.kill('SIGTERM'),
  };
};

/** The part of Electron's `utilityProcess` module the supervisor uses (typed here: only src/main/shell imports electron). */
export interface UtilityProcessModule {
  fork(
    modulePath: string,
    args: string[],
    options: { env: NodeJS.ProcessEnv; stdio: 'pipe'; serviceName: string },
  ): {
    readonly pid: number | undefined;
    readonly stdout: NodeJS.ReadableStream | null;
    readonly stderr: NodeJS.ReadableStream | null;
    postMessage(message: unknown): void;
    kill(): boolean;
    on(event: 'message', listener: (message: unknown) => void): unknown;
    on(event: 'exit', listener: (code: number) => void): unknown;
  };
}

/** Electron: the service runs in a utilityProcess (a Node process Electron starts and ends with the app). */
export function utilityForker(utilityProcess: UtilityProcessModule): Forker {
  return (modulePath, args, env) => {
    const child = utilityProcess.fork(modulePath, args, {
      env,
      stdio: 'pipe',
      serviceName: 'Reelsync library service',
    });
    return {
      get pid() {
        return child.pid;
      },
      stdout: child.stdout,
      stderr: child.stderr,
      postMessage: (message) => child.postMessage(message),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.on('exit', (code) => listener(code)),
      kill: () => void child.kill(),
    };
  };
}
