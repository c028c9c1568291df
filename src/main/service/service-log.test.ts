import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { ServiceLog } from './service-log';

describe('service log', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(async () => cleanup());

  it('appends across runs, readable by its owner only, and rotates to .1 at the cap', () => {
    const file = join(dir, 'logs', 'service.log');
    const first = new ServiceLog(file, 1000);
    first.write('from the first run\n');
    first.close();
    const log = new ServiceLog(file, 1000);
    for (let i = 0; i < 30; i++) log.write(`line ${String(i).padStart(2, '0')} ${'x'.repeat(90)}\n`);
    log.note('supervisor line');
    log.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const current = readFileSync(file, 'utf8');
    const previous = readFileSync(`${file}.1`, 'utf8');
    expect(statSync(file).size).toBeLessThanOrEqual(1000);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(1000);
    expect(current).toMatch(/\[supervisor\] supervisor line\n$/);
    expect(current).toContain('line 29');
    // Whole lines only: every line of both files is complete.
    for (const text of [current, previous]) expect(text.endsWith('\n')).toBe(true);
  });
});
