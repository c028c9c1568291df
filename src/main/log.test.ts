import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/temp';
import { createLogger, logsDir } from './log';

let dir: string;
let cleanup: () => Promise<void>;
const savedLevel = process.env.REELSYNC_LOG;
beforeEach(async () => ({ dir, cleanup } = await tempDir('reelsync-log-')));
afterEach(async () => {
  if (savedLevel === undefined) delete process.env.REELSYNC_LOG;
  else process.env.REELSYNC_LOG = savedLevel;
  await cleanup();
});

describe('the desktop log file', () => {
  it('writes the main process log under <data>/logs, and moves an oversized one aside first', () => {
    process.env.REELSYNC_LOG = 'info';
    const file = join(logsDir(dir), 'main.log');
    expect(file).toBe(join(dir, 'logs', 'main.log'));
    const first = createLogger('reelsync', { file });
    first.child({ module: 'app' }).info({ watchId: 7 }, 'started');
    const line = JSON.parse(readFileSync(file, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ name: 'reelsync', module: 'app', watchId: 7, msg: 'started' });

    writeFileSync(file, 'x'.repeat(11 * 1024 * 1024));
    const second = createLogger('reelsync', { file });
    second.info('after rotation');
    expect(statSync(`${file}.1`).size).toBe(11 * 1024 * 1024);
    expect(readFileSync(file, 'utf8')).toContain('after rotation');
  });
});
