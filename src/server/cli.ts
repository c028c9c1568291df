import { Command, InvalidArgumentError } from 'commander';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Accounts, type KeyInterface } from './accounts/accounts';
import { usdToMicro } from './accounts/billing';
import { ConfigError, exposureWarning, loadConfig, type ServiceConfig } from './config';
import { reindexOutdatedCommand } from './library/reindex-command';
import { answerParent } from './parent-answers';
import { parentChannel } from './parent-channel';
import { SERVICE_ROLES, startService, type RunningService, type ServiceRole } from './service';
import { openServiceDatabase } from './storage/open-service-sql';
import type { Sql } from './storage/sql';

/** Exit codes: 0 ok, 1 runtime failure, 2 bad arguments or config. */
const program = new Command('reelsync-service')
  .description('Reelsync library service: the Video Library API (interface A) on this machine')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  .showHelpAfterError();

const usd = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1e9) throw new InvalidArgumentError('must be a non-negative amount in USD');
  return n;
};
const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
};
const keyInterface = (value: string): KeyInterface => {
  if (value !== 'library' && value !== 'datalake') throw new InvalidArgumentError('must be library or datalake');
  return value;
};

const role = (value: string): ServiceRole => {
  const found = SERVICE_ROLES.find((r) => r === value);
  if (!found) throw new InvalidArgumentError(`must be one of ${SERVICE_ROLES.join(', ')}`);
  return found;
};

type DatabaseOpts = { data?: string; config?: string };

/** The database `--config` names (database.url), else `--data`'s SQLite file. */
async function withDatabase<T>(opts: DatabaseOpts, fn: (sql: Sql, config: ServiceConfig) => Promise<T>): Promise<T> {
  const config = await loadConfig(opts.config);
  const dataDir = opts.data === undefined ? undefined : resolve(opts.data);
  if (dataDir !== undefined && config.database.url === undefined) mkdirSync(dataDir, { recursive: true });
  const database = await openServiceDatabase(config, dataDir);
  try {
    return await fn(database.sql, config);
  } finally {
    await database.close();
  }
}

function withAccounts<T>(opts: DatabaseOpts, fn: (accounts: Accounts) => Promise<T>): Promise<T> {
  return withDatabase(opts, (sql) => fn(new Accounts(sql)));
}

const DATA_HELP = 'data folder (its SQLite database; not needed when the config sets database.url)';
const CONFIG_HELP = 'JSON config file: its database.url (or REELSYNC_DATABASE_URL) selects PostgreSQL';

program
  .command('serve')
  .description('serve the API until SIGTERM/SIGINT')
  .requiredOption('--data <dir>', 'data folder (database, blobs)')
  .option('--port <n>', 'port, 0 = any free port', port, 0)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--config <file>', 'JSON config file (database, storage, limits, indexer, callbacks)')
  .option(
    '--role <role>',
    'all (default), api (HTTP only) or worker (jobs only); api and worker need database.url',
    role,
    'all',
  )
  .action(async (opts: { data: string; port: number; host: string; config?: string; role: ServiceRole }) => {
    const config = await loadConfig(opts.config, { host: opts.host });
    const exposed = exposureWarning(config, { host: opts.host });
    if (exposed) process.stderr.write(`reelsync-service: warning: ${exposed}\n`);
    // Handlers go in before the service starts, so a signal during start-up still drains cleanly.
    const state: { stopRequested: boolean; service?: RunningService } = { stopRequested: false };
    let closing = false;
    const shutdown = (): void => {
      state.stopRequested = true;
      if (!state.service || closing) return; // a stop, a signal and the parent's exit may all ask
      closing = true;
      state.service.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
    // Started by the app (a utilityProcess or a Node fork): never outlive it; once listening, tell it the address
    // over IPC and take its requests.
    const parent = parentChannel((problem) => process.stderr.write(`reelsync-service: ${problem}\n`));
    parent?.onGone(shutdown);
    state.service = await startService({
      dataDir: resolve(opts.data),
      config,
      host: opts.host,
      port: opts.port,
      role: opts.role,
    });
    if (state.stopRequested) {
      shutdown();
      return;
    }
    const { url } = state.service;
    // The line process managers and tests wait for: the address, or for a worker (no HTTP) that it takes jobs.
    process.stdout.write(url === null ? 'worker ready\n' : `listening on ${url}\n`);
    if (parent && url !== null) answerParent(parent, { ...state.service, url }, shutdown);
  });

const key = program.command('key').description('API keys');
key
  .command('create')
  .description('create an API key (and the account if new); prints the key alone')
  .option('--data <dir>', DATA_HELP)
  .option('--config <file>', CONFIG_HELP)
  .requiredOption('--account <name>', 'account name')
  .requiredOption('--interface <kind>', 'library or datalake', keyInterface)
  .option('--credits <usd>', 'set the account balance, in USD', usd)
  .action(async (opts: DatabaseOpts & { account: string; interface: KeyInterface; credits?: number }) => {
    const created = await withAccounts(opts, async (accounts) => {
      const account = await accounts.ensure(opts.account);
      if (opts.credits !== undefined) await accounts.setBalance(account.id, usdToMicro(opts.credits));
      return accounts.createKey(account.id, opts.interface);
    });
    process.stdout.write(`${created}\n`);
  });

const credits = program.command('credits').description('account balances');
credits
  .command('set')
  .description('set an account balance')
  .option('--data <dir>', DATA_HELP)
  .option('--config <file>', CONFIG_HELP)
  .requiredOption('--account <name>', 'account name')
  .requiredOption('--usd <n>', 'balance in USD', usd)
  .action(async (opts: DatabaseOpts & { account: string; usd: number }) => {
    await withAccounts(opts, async (accounts) =>
      accounts.setBalance((await accounts.ensure(opts.account)).id, usdToMicro(opts.usd)),
    );
  });

program
  .command('webhook-secret')
  .description(
    "print the account's webhook signing secret (Standard Webhooks, whsec_...) for verifying datalake webhooks",
  )
  .option('--data <dir>', DATA_HELP)
  .option('--config <file>', CONFIG_HELP)
  .requiredOption('--account <name>', 'account name')
  .action(async (opts: DatabaseOpts & { account: string }) => {
    const secret = await withAccounts(opts, async (accounts) => (await accounts.byName(opts.account))?.webhookSecret);
    if (!secret) {
      process.stderr.write(`reelsync-service: no account named ${opts.account}\n`);
      process.exit(1);
    }
    process.stdout.write(`${secret}\n`);
  });

program
  .command('reindex-outdated')
  .description(
    'count the indexed videos indexed under older index rules; with --queue, queue their re-index now ' +
      '(for a service run with indexer.reindexOutdated false; its workers run them one at a time, behind new uploads)',
  )
  .option('--data <dir>', DATA_HELP)
  .option('--config <file>', CONFIG_HELP)
  .option('--queue', 'queue a re-index of every outdated video that has none yet', false)
  .action(async (opts: DatabaseOpts & { queue: boolean }) => {
    const lines = await withDatabase(opts, (sql, config) => reindexOutdatedCommand(sql, config, opts.queue));
    process.stdout.write(lines.map((l) => `${l}\n`).join(''));
  });

program
  .command('migrate-to')
  .description('copy this library (service.db and its blobs) to PostgreSQL and S3, then verify; safe to run again')
  .requiredOption('--data <dir>', 'data folder of the library (the service must not be running on it)')
  .requiredOption('--database <url>', 'postgres://user@host[:port]/database (a password: in the URL or PGPASSWORD)')
  .requiredOption('--s3-bucket <name>', 'S3 bucket for originals, keyframes and posters')
  .option('--s3-endpoint <url>', 'S3-compatible server, e.g. http://minio:9000 (omit for AWS)')
  .option('--s3-region <region>', 'S3 region (default us-east-1)')
  .option('--s3-force-path-style', 'path-style URLs (MinIO, Ceph RGW)', false)
  .action(
    async (opts: {
      data: string;
      database: string;
      s3Bucket: string;
      s3Endpoint?: string;
      s3Region?: string;
      s3ForcePathStyle: boolean;
    }) => {
      // Loaded here only: the PostgreSQL driver and the copy are no part of the embedded service's start.
      const { migrateTo, rowDifferenceHint } = await import('./migrate/migrate-to');
      const differences = await migrateTo({
        dataDir: resolve(opts.data),
        databaseUrl: opts.database,
        s3: {
          bucket: opts.s3Bucket,
          endpoint: opts.s3Endpoint,
          region: opts.s3Region,
          forcePathStyle: opts.s3ForcePathStyle,
        },
        log: (line) => process.stdout.write(`${line}\n`),
      });
      if (differences.length > 0) {
        process.stderr.write(`reelsync-service: verification failed:\n${differences.map((d) => `  ${d}\n`).join('')}`);
        const hint = rowDifferenceHint(differences);
        if (hint) process.stderr.write(`${hint}\n`);
        process.exit(1);
      }
      // The S3 client's keep-alive sockets would hold the process open a while.
      process.exit(0);
    },
  );

// Every file this process and its ffmpeg children create (uploads, scratch, keyframes) is private to the user, whatever
// umask the service was started with; databases and blobs also set their modes themselves (0600, folders 0700).
process.umask(0o077);
program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`reelsync-service: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`reelsync-service: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
