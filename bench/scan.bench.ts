import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeIgnore } from '../src/main/sync/ignore';
import { scanTree } from '../src/main/sync/scanner';
import { BENCH_DIR } from './bench-files';
import { command, compare, timeBest, type Benchmark } from './harness';

const FILES = 100_000;
const PER_DIR = 250;

/** 100k small files in 400 folders (plus junk that must be ignored), made once. */
async function tree(): Promise<string> {
  const root = join(BENCH_DIR, 'scan-100k');
  const done = join(root, '.complete');
  if (existsSync(done)) return root;
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const dir = join(root, `card-${String(d).padStart(3, '0')}`, 'DCIM');
    await mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: PER_DIR }, (_, f) => writeFile(join(dir, `C${String(f).padStart(4, '0')}.MP4`), 'x')),
    );
  }
  await writeFile(done, '');
  return root;
}

function rssMb(): number {
  return process.memoryUsage().rss / 1024 / 1024;
}

const bench: Benchmark = {
  name: 'scan',
  description: `initial scan of ${FILES.toLocaleString('en')} files (walk, ignore rules, stat) vs \`find -printf '%s %T@'\` on the same tree`,
  async run() {
    const root = await tree();
    const ignore = makeIgnore(root, []);
    let files = 0;
    let peak = rssMb();
    const ours = await timeBest(3, async () => {
      files = 0;
      await scanTree(root, {
        ignore,
        onBatch: (batch) => {
          files += batch.length;
          peak = Math.max(peak, rssMb());
        },
      });
    });
    if (files < FILES) throw new Error(`scan saw ${files} files, expected ${FILES}`);
    let found = 0;
    const base = await timeBest(3, async () => {
      found = (await command('find', [root, '-type', 'f', '-printf', '%s %T@\\n'])).split('\n').length - 1;
    });
    return [
      compare(
        `scan of ${files.toLocaleString('en')} files (find listed ${found.toLocaleString('en')})`,
        { label: 'reelsync scanTree', seconds: ours, amount: files, unit: 'files', peakRssMb: peak },
        { label: "find -printf '%s %T@'", seconds: base, amount: found, unit: 'files' },
        '>= 0.33x (scan <= 3x find)',
      ),
    ];
  },
};

export default bench;
