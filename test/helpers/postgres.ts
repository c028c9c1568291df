import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { tempDir } from './temp';

const run = promisify(execFile);

/** Debian's postgresql-15 (scripts/setup.sh installs it), or the folder PG_BIN names instead. */
const binDir = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';

export const postgresBinDir =
  existsSync(join(binDir, 'initdb')) && existsSync(join(binDir, 'postgres')) ? binDir : undefined;

/** PostgreSQL tests run locally only where the binaries exist; under CI their absence fails them. */
export const skipPostgresTests = !postgresBinDir && !process.env.CI;
if (skipPostgresTests) {
  console.warn(
    `PostgreSQL tests skipped: no initdb and postgres in ${binDir} (apt-get install postgresql-15, or set PG_BIN)`,
  );
}

/** PostgreSQL refuses to run as root: as root the server runs as nobody:nogroup. */
/**
 * Runs postgres ($0 $@) until its stdin closes, then shuts it down (SIGINT: fast shutdown), removes the server's
 * folder ($PG_TEST_DIR) and exits with postgres' status. The test process holds the other end of stdin: stop() closes
 * it, and so does the test process dying in any way (even SIGKILL), so no server or folder outlives its tests.
 * (A background job's stdin is /dev/null unless redirected: hence fd 3.)
 */
const LEASH =
  'exec 3<&0; "$0" "$@" 3<&- & pid=$!; (read -r _ <&3; kill -INT "$pid" 2>/dev/null) & ' +
  'wait "$pid"; code=$?; rm -rf "$PG_TEST_DIR"; exit "$code"';
const NOBODY = { uid: 65534, gid: 65534 };
const PG_ENV = { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' };

export interface TestPostgres {
  host: string;
  port: number;
  /** postgres://postgres@127.0.0.1:port/NAME, trusted without a password. */
  url(database: string): string;
  /** A new empty database (db1, db2 ...); its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL in a temporary folder: listening on 127.0.0.1 (any free port) and on a unix socket in that
 * folder, trust auth on loopback only, fsync off. One per test file; each test takes a fresh database. Starts again in
 * a new folder if another process took the free port between the probe and postgres binding it.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir;
  if (!bin) {
    throw new Error(
      `PostgreSQL not found in ${binDir}: apt-get install postgresql-15 (scripts/setup.sh), or set PG_BIN`,
    );
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startIn(bin, await tempDir('reelsync-pg-'));
    } catch (err) {
      if (attempt >= 3 || !/could not bind|could not create any TCP/.test(String(err))) throw err;
    }
  }
}

async function startIn(
  bin: string,
  { dir, cleanup }: { dir: string; cleanup: () => Promise<void> },
): Promise<TestPostgres> {
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? NOBODY : {};
  let child: ChildProcess | undefined;
  try {
    if (asRoot) await chown(dir, NOBODY.uid, NOBODY.gid);
    const data = join(dir, 'data');
    // A copy of one initdb'd cluster: initdb for every server cost a second or two of CPU each, dozens of times a run.
    await run('cp', ['-a', await initdbTemplate(bin), data]);
    const port = await freePort();
    child = spawn(
      '/bin/sh',
      [
        '-c',
        LEASH,
        join(bin, 'postgres'),
        ...['-D', data, '-p', String(port), '-k', dir],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
        ...['-c', 'full_page_writes=off', '-c', 'shared_buffers=16MB', '-c', 'max_connections=100'],
        ...['-c', 'dynamic_shared_memory_type=mmap', '-c', 'logging_collector=off'],
      ],
      { ...owner, cwd: dir, stdio: ['pipe', 'ignore', 'pipe'], env: { ...PG_ENV, PG_TEST_DIR: dir } },
    );
    await ready(child);
    return serverHandle(child, port, cleanup);
  } catch (err) {
    if (child) {
      child.stdin?.end();
      await ended(child);
    }
    await cleanup();
    throw err;
  }
}

const INITDB_ARGS = [
  '-U',
  'postgres',
  '--auth=trust',
  '--no-sync',
  '--no-instructions',
  '-E',
  'UTF8',
  '--locale=C.UTF-8',
];
const TEMPLATES = join(import.meta.dirname, '..', '..', '.cache', 'postgres-initdb');

/**
 * The data folder initdb makes with INITDB_ARGS for these binaries, made once and kept in .cache/ (owned by nobody when
 * run as root, as the servers are). Test processes racing to make it each make their own and the first rename wins.
 */
async function initdbTemplate(bin: string): Promise<string> {
  const key = createHash('sha256')
    .update(JSON.stringify([bin, statSync(join(bin, 'postgres')).mtimeMs, INITDB_ARGS]))
    .digest('hex')
    .slice(0, 16);
  const template = join(TEMPLATES, key);
  if (existsSync(template)) return join(template, 'data');
  await mkdir(TEMPLATES, { recursive: true });
  const making = await mkdtemp(join(TEMPLATES, 'making-'));
  try {
    const asRoot = process.getuid?.() === 0;
    if (asRoot) await chown(making, NOBODY.uid, NOBODY.gid);
    await run(join(bin, 'initdb'), ['-D', join(making, 'data'), ...INITDB_ARGS], {
      ...(asRoot ? NOBODY : {}),
      cwd: making,
      env: PG_ENV,
    });
    await rename(making, template).catch((err: unknown) => {
      if (!existsSync(template)) throw err;
    });
  } finally {
    await rm(making, { recursive: true, force: true });
  }
  return join(template, 'data');
}

function serverHandle(child: ChildProcess, port: number, cleanup: () => Promise<void>): TestPostgres {
  const host = '127.0.0.1';
  const url = (database: string): string => `postgres://postgres@${host}:${port}/${database}`;
  let databases = 0;
  return {
    host,
    port,
    url,
    createDatabase: async () => {
      const name = `db${++databases}`;
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    stop: async () => {
      child.stdin?.end();
      await ended(child);
      await cleanup();
    },
  };
}

/** Resolves when the server accepts connections; rejects with its log when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (c: Buffer): void => {
      log = (log + c.toString()).slice(-8000);
      if (log.includes('ready to accept connections')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`postgres exited with ${code}: ${log}`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** A port free on 127.0.0.1 a moment ago (nothing listens on it once this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
