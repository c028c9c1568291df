import { Command, InvalidArgumentError, Option } from 'commander';
import { SEARCH_TYPES, unmatchedWords } from '../shared/api-types';
import { CLIP_FORMATS } from '../shared/contract/clips';
import { describeError } from '../shared/errors';
import { LibraryApiError } from './api/errors';
import { connect } from './cli/connect';
import { runClip, runDownload } from './cli/library-commands';
import { registerExportCommands, withOriginalFiles } from './cli/export-command';
import { EXIT, resolveGlobalOptions, UsageError, type GlobalOptions } from './cli/options';
import { runSync } from './cli/sync-command';
import { runSemanticDownload, runSemanticStatus } from './cli/semantic-command';
import { createLogger } from './log';
import { openDatabase, type Db } from './store/database';
import { AppSettings } from './settings/app-settings';
import { retryAllFailed, syncStatusOf } from './sync/control';

// Logs go to stderr; a command line shows warnings only unless REELSYNC_LOG asks for more.
process.env.REELSYNC_LOG ??= 'warn';

const int =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer ${min}..${max}`);
    return n;
  };
const collect = (value: string, previous: string[]): string[] => [...previous, value];

const program = new Command('reelsync')
  .description('Reelsync: sync footage folders to a video library and search it')
  .option(
    '--server <url>',
    'library address: its origin (http://host:port) or base URL (…/serve/api/v1); omit to start the embedded local service [REELSYNC_SERVER]',
  )
  .option('--key <key>', 'library API key [REELSYNC_KEY]')
  .option('--db <file>', 'client database file [REELSYNC_DB]')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage))
  .showHelpAfterError();

function globals(): GlobalOptions {
  return resolveGlobalOptions(program.opts<{ server?: string; key?: string; db?: string }>());
}

async function withDb(fn: (db: Db, g: GlobalOptions) => Promise<number> | number): Promise<void> {
  const g = globals();
  const db = openDatabase(g.db);
  let code: number;
  try {
    code = await fn(db, g);
  } finally {
    db.close();
  }
  process.exitCode = code;
}

program
  .command('sync')
  .description(
    'sync folders: --once scans, uploads and waits for indexing, then prints a summary; otherwise keeps watching',
  )
  .argument('<folder...>', 'folders to sync')
  .option('--once', 'scan once, wait until every file is indexed or failed, print a summary and exit')
  .option('--folder-id <n>', 'library folder id (-1: Default)', int(-1, 2 ** 31 - 1))
  .option('--tag <tag>', 'tag added to every upload (repeatable)', collect, [])
  .addOption(
    new Option('--stable-ms <ms>', 'how long size and mtime must not change before a file is taken')
      .argParser(int(0, 3_600_000))
      .hideHelp(),
  )
  .action(async (folders: string[], o: { once?: boolean; folderId?: number; tag: string[]; stableMs?: number }) => {
    await withDb(async (db, g) => {
      const logger = createLogger('reelsync-cli');
      const conn = await connect(g, db, logger);
      try {
        return await runSync(db, conn, logger, {
          folders,
          once: o.once ?? false,
          folderId: o.folderId,
          tags: o.tag,
          stableMs: o.stableMs,
        });
      } finally {
        await conn.close();
      }
    });
  });

program
  .command('status')
  .description('files and queue state from the client database')
  .option('--json', 'machine-readable output')
  .action(async (o: { json?: boolean }) => {
    await withDb((db) => {
      const s = syncStatusOf(db);
      if (o.json) process.stdout.write(`${JSON.stringify(s)}\n`);
      else {
        process.stdout.write(
          `queue: ${s.paused ? `paused (${s.paused.reason})` : 'running'}; jobs queued ${s.jobs.queued}, active ${s.jobs.active}, failed ${s.jobs.failed}\n`,
        );
        process.stdout.write(`folders: ${s.folders}\n`);
        for (const [status, n] of Object.entries(s.byStatus)) process.stdout.write(`  ${status.padEnd(14)} ${n}\n`);
      }
      return EXIT.ok;
    });
  });

const semantic = program.command('semantic').description("the library service's semantic (CLIP-class) model");
for (const [name, description, run] of [
  ['status', 'print whether semantic search is on', runSemanticStatus],
  ['download', 'download the model on the service, with a progress bar, until it is ready', runSemanticDownload],
] as const)
  semantic
    .command(name)
    .description(description)
    .action(async () => {
      await withDb(async (db, g) => {
        const conn = await connect(g, db, createLogger('reelsync-cli'));
        try {
          return await run(conn.client, process.stdout);
        } finally {
          await conn.close();
        }
      });
    });

program
  .command('search')
  .description('search the library by text')
  .argument('<query>', 'natural-language query')
  .addOption(
    new Option('--type <type>', 'search type')
      .choices(SEARCH_TYPES.filter((t) => t !== 'BY_IMAGE' && t !== 'BY_VIDEO'))
      .default('BY_CLIP'),
  )
  .option('--top-k <n>', 'number of results', int(1, 1000), 10)
  .option('--json', 'print the results as JSON')
  .action(async (query: string, o: { type: 'BY_CLIP' | 'BY_AUDIO' | 'BY_CAPTION'; topK: number; json?: boolean }) => {
    await withDb(async (db, g) => {
      const logger = createLogger('reelsync-cli');
      const conn = await connect(g, db, logger);
      try {
        const results = await conn.client.search({ search_param: query, search_type: o.type, top_k: o.topK });
        if (o.json) {
          process.stdout.write(`${JSON.stringify(withOriginalFiles(db, results))}\n`);
          return EXIT.ok;
        }
        if (results.length === 0) process.stdout.write('no results\n');
        const unmatched = unmatchedWords(results);
        if (unmatched.length) process.stdout.write(`no match for: ${unmatched.join(', ')}\n`);
        for (const r of results) {
          if ('videoNo' in r)
            process.stdout.write(
              `${r.score.toFixed(3)}  ${r.videoNo}  ${r.startTime}-${r.endTime}s${r.audio_ts ? `  "${r.audio_ts}"` : ''}\n`,
            );
          else
            process.stdout.write(`${r.score.toFixed(3)}  ${r.video_no}  ${r.start_time}-${r.end_time}s  "${r.text}"\n`);
        }
        return EXIT.ok;
      } finally {
        await conn.close();
      }
    });
  });

const seconds = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of seconds >= 0');
  return n;
};

program
  .command('clip')
  .description(
    'cut [start, end] of a library video into a file: from its local original when this computer has it, else downloaded first',
  )
  .argument('<videoNo>', 'the video (videoNo of a search hit)')
  .requiredOption('--start <seconds>', 'start of the range', seconds)
  .requiredOption('--end <seconds>', 'end of the range', seconds)
  .option('--out <file>', 'output file (never overwritten: "name (1).mp4" when taken); the clips folder by default')
  .option('--handles <seconds>', 'extra seconds before and after', seconds, 0)
  .option('--copy', 'stream copy: fast and lossless, but starts on the keyframe at or before --start')
  .addOption(new Option('--format <format>', 'container (default: from --out, else mp4)').choices(CLIP_FORMATS))
  .action(
    async (
      videoNo: string,
      o: {
        start: number;
        end: number;
        out?: string;
        handles: number;
        copy?: boolean;
        format?: (typeof CLIP_FORMATS)[number];
      },
    ) => {
      await withDb((db, g) =>
        runClip(db, g, createLogger('reelsync-cli'), {
          videoNo,
          start: o.start,
          end: o.end,
          out: o.out,
          handles: o.handles,
          copy: o.copy ?? false,
          format: o.format,
        }),
      );
    },
  );

registerExportCommands(program, withDb, () => createLogger('reelsync-cli'));

program
  .command('download')
  .description(
    'download a stored video, keyframe or image by bucket and blob (prints the cost first; resumes a partial download)',
  )
  .requiredOption('--bucket <bucket>', 'storage bucket (video_bucket, keyframe_bucket or bucket of a result)')
  .requiredOption('--blob <path>', 'object path inside the bucket')
  .option('--out <dir>', 'destination folder (the downloads folder by default)')
  .option('--max-cost <usd>', 'refuse when the quoted cost is higher (or unknown)', (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number of US dollars >= 0');
    return n;
  })
  .action(async (o: { bucket: string; blob: string; out?: string; maxCost?: number }) => {
    await withDb((db, g) => runDownload(db, g, createLogger('reelsync-cli'), o));
  });

program
  .command('pause')
  .description('pause the upload queue (a running sync stops its uploads within a second)')
  .action(async () =>
    withDb((db) => (new AppSettings(db).setQueuePause('sync', 'user'), process.stdout.write('paused\n'), EXIT.ok)),
  );

program
  .command('resume')
  .description('resume the upload queue (also after an insufficient-balance pause)')
  .action(async () =>
    withDb((db) => (new AppSettings(db).setQueuePause('sync', null), process.stdout.write('resumed\n'), EXIT.ok)),
  );

program
  .command('retry')
  .description('queue every failed job again')
  .action(async () => withDb((db) => (process.stdout.write(`requeued ${retryAllFailed(db)}\n`), EXIT.ok)));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`reelsync: ${describeError(err)}\n`);
  if (err instanceof UsageError) process.exit(EXIT.usage);
  if (err instanceof LibraryApiError && (err.reason === 'unauthorized' || err.reason === 'network'))
    process.exit(EXIT.service);
  if (err instanceof LibraryApiError && err.reason === 'insufficient-balance') process.exit(EXIT.balance);
  process.exit(EXIT.failed);
});
