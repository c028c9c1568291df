import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startEngine } from '../test/helpers/sync-engine';
import { BENCH_DIR } from './bench-files';
import { command, compare, timeBest, type Benchmark } from './harness';

const FILES = 10_000;
/** Nothing is uploaded during this bench: the client never reaches this address. */
const NO_SERVICE = 'http://127.0.0.1:9/serve/api/v1';

async function tree(): Promise<string> {
  const root = join(BENCH_DIR, 'restart-10k');
  if (existsSync(join(root, '.complete'))) return root;
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, `day-${String(d).padStart(3, '0')}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, f) =>
        writeFile(join(dir, `A${String(f).padStart(3, '0')}.MP4`), `clip ${d}/${f}`),
      ),
    );
  }
  await writeFile(join(root, '.complete'), '');
  return root;
}

const bench: Benchmark = {
  name: 'restart',
  description: `engine restart over ${FILES.toLocaleString('en')} already-synced files: open the database, start the queue, rescan, start watching (goal < 3 s)`,
  async run() {
    const root = await tree();
    const stateDir = join(BENCH_DIR, 'restart-state');
    await rm(stateDir, { recursive: true, force: true });
    await mkdir(stateDir, { recursive: true });
    // The synced state: every file recorded, hashed and linked to an indexed library video, as after a finished sync.
    const setup = await startEngine(stateDir, NO_SERVICE, 'rsl_bench');
    setup.engine.pause();
    await setup.engine.addFolder({ path: root });
    await setup.engine.scan();
    const now = Date.now();
    setup.db.transaction(() => {
      setup.db.prepare("UPDATE jobs SET state = 'cancelled'").run();
      setup.db
        .prepare(
          "UPDATE files SET state = 'linked', hash = printf('%064d', id), hashed_size = size, hashed_mtime_ms = mtime_ms",
        )
        .run();
      setup.db
        .prepare(
          `INSERT INTO contents (hash, size, state, video_no, progress, created_at, updated_at)
           SELECT hash, size, 'indexed', 'VI' || id, 100, ?, ? FROM files`,
        )
        .run(now, now);
    })();
    setup.engine.resume();
    await setup.stop();

    let report = { new: 0, changed: 0, unchanged: 0 };
    const ours = await timeBest(3, async () => {
      const running = await startEngine(stateDir, NO_SERVICE, 'rsl_bench');
      report = await running.engine.scan();
      await running.engine.watch();
      await running.engine.waitForIdle();
      await running.stop();
    });
    if (report.unchanged !== FILES || report.new + report.changed !== 0)
      throw new Error(`restart rescan was not a no-op: ${JSON.stringify(report)}`);
    const base = await timeBest(3, () => command('find', [root, '-type', 'f', '-printf', '%s %T@\\n']));
    return [
      compare(
        `restart over ${FILES.toLocaleString('en')} synced files (${report.unchanged} unchanged, nothing re-hashed or uploaded)`,
        { label: 'reelsync engine restart', seconds: ours, amount: FILES, unit: 'files' },
        { label: "find -printf '%s %T@'", seconds: base, amount: FILES, unit: 'files' },
        'absolute: restart < 3 s',
      ),
    ];
  },
};

export default bench;
