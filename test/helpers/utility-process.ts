import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { UtilityProcessModule } from '../../src/main/service/forker';

const SHIM = join(import.meta.dirname, 'parent-port-shim.mjs');

/** What Electron's UtilityProcess offers, backed by a real Node child process. */
class FakeUtilityProcess extends EventEmitter {
  constructor(readonly child: ChildProcess) {
    super();
    child.on('message', (m) => this.emit('message', m));
    child.once('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
  }
  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }
  get stdout(): NodeJS.ReadableStream | null {
    return this.child.stdout;
  }
  get stderr(): NodeJS.ReadableStream | null {
    return this.child.stderr;
  }
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as object);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

/**
 * A stand-in for electron's `utilityProcess` module (the binary cannot run here): `fork` starts a real Node child with
 * the same API (postMessage, 'message', 'exit' with a code, kill(), pid, stdout/stderr) and, inside the child,
 * `process.parentPort`. Every process it started is listed, for orphan checks.
 */
export function fakeUtilityProcess(): UtilityProcessModule & { started: FakeUtilityProcess[] } {
  const started: FakeUtilityProcess[] = [];
  return {
    started,
    fork(modulePath, args, options) {
      const child = fork(modulePath, args, {
        env: options.env,
        execArgv: ['--import', SHIM],
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      });
      const proc = new FakeUtilityProcess(child);
      started.push(proc);
      return proc;
    },
  };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
