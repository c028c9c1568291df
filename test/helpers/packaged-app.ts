// Running a built or packaged Reelsync with plain Node, as Electron runs its Node side with ELECTRON_RUN_AS_NODE: the
// app's files on disk (an extracted app.asar, or a scratch copy of the project), child processes, real HTTP.
import { extractAll } from '@electron/asar';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { z } from 'zod';

/**
 * app.asar extracted into `dest`, then app.asar.unpacked copied over it: the app's tree as Electron's asar-aware fs
 * shows it to the app. The copy matters: extractAll writes the unpacked files too but drops their modes, and
 * exiftool-vendored executes its perl script directly.
 */
export async function extractApp(resourcesDir: string, dest: string): Promise<void> {
  extractAll(join(resourcesDir, 'app.asar'), dest);
  await cp(join(resourcesDir, 'app.asar.unpacked'), dest, { recursive: true, force: true });
}

export interface RunningProcess {
  child: ChildProcess;
  /** The match of the ready pattern in the process' stdout. */
  ready: RegExpExecArray;
  stop(): Promise<void>;
}

/** Environment for an app process: its data under `home`, quiet logs, and nothing of the caller's Reelsync settings. */
export function appEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    REELSYNC_LOG: process.env.REELSYNC_LOG ?? 'warn',
  };
  for (const name of ['REELSYNC_DATA', 'REELSYNC_DB', 'REELSYNC_SERVER', 'REELSYNC_KEY', 'NODE_OPTIONS'])
    delete env[name];
  return env;
}

/** Starts `node <args>` and resolves once its stdout matches `ready`; rejects with its output when it exits first. */
export async function startNode(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`node ${args.join(' ')} not ready after ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(' ')} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  return {
    child,
    ready: match,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const RpcAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** One contract call to a headless web mode (what its browser UI sends). */
export async function webRpc(
  origin: string,
  token: string,
  channel: string,
  body: unknown,
): Promise<z.infer<typeof RpcAnswer>> {
  const res = await request(`${origin}/api/rpc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-reelsync-token': token },
    body: JSON.stringify(body),
  });
  return RpcAnswer.parse(await res.body.json());
}

/** The origin and session token from the line web mode prints ("Open: http://127.0.0.1:PORT/#token=..."). */
export const WEB_READY = /Open: (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/;
export const SERVICE_READY = /listening on (http:\/\/\S+)/;
