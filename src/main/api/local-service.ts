import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { API_BASE_PATH } from '../../shared/api-types';
import type { Logger } from '../log';
import { builtEntry, projectRoot } from '../paths';

export interface LocalService {
  baseUrl: string;
  stop(): Promise<void>;
}

/** How to run the service's command line: its built entry, with Node (Electron runs it as Node with ELECTRON_RUN_AS_NODE). */
function serviceCommand(): { file: string; args: string[] } {
  const entry = builtEntry('service/cli.js');
  if (!existsSync(entry)) throw new Error(`the library service is not built (${entry} is missing): run npm run build`);
  return { file: process.execPath, args: [entry] };
}

/** Creates a library key for a local account in the service's data folder (the service's own `key create`). */
export function createLocalKey(dataDir: string, account: string, credits: number): string {
  const { file, args } = serviceCommand();
  const res = spawnSync(file, [...args, 'key', 'create', '--data', dataDir, '--account', account, '--interface', 'library', '--credits', String(credits)], {
    encoding: 'utf8',
    cwd: projectRoot,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  if (res.status !== 0) throw new Error(`could not create a key for the local service: ${res.stderr.trim()}`);
  return res.stdout.trim();
}

/**
 * Starts the embedded library service as a child process on 127.0.0.1 in `dataDir` and resolves once it prints
 * `listening on URL`. Its own process, so indexing never stalls the client; stop() sends SIGTERM and waits.
 */
export async function startLocalService(dataDir: string, logger: Logger): Promise<LocalService> {
  const { file, args } = serviceCommand();
  const log = logger.child({ module: 'local-service' });
  const child: ChildProcess = spawn(file, [...args, 'serve', '--data', dataDir, '--port', '0'], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', REELSYNC_LOG: process.env.REELSYNC_LOG ?? 'warn' },
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the local service exited (${code}): ${stderr.trim()}`)));
    child.once('error', reject);
  });
  log.info({ origin, pid: child.pid }, 'local service started');
  return {
    baseUrl: `${origin}${API_BASE_PATH}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
