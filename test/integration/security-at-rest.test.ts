import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/server/accounts/accounts';
import type { TestService } from '../helpers/service';
import { useService } from '../helpers/use-service';

let service: TestService;
let dlKey: string;
const testService = useService({ config: { indexer: { paused: true } } });
beforeAll(async () => {
  service = testService();
  dlKey = service.createKey('test', { kind: 'datalake' });
}, 60_000);

describe('keys at rest', () => {
  it('no file of the data folder holds a key in clear; only its SHA-256 digest (the lookup is by digest)', async () => {
    // Use both keys so that any request logging or caching would have written them somewhere.
    for (const key of [service.key, dlKey]) expect(key.length).toBeGreaterThan(20);
    const files = (await readdir(service.dataDir, { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name));
    expect(files.some((f) => f.endsWith('service.db'))).toBe(true);
    let digestsSeen = 0;
    for (const f of files) {
      const bytes = await readFile(f);
      for (const key of [service.key, dlKey]) {
        expect(bytes.includes(Buffer.from(key)), `${f} holds a key in clear`).toBe(false);
        // The secret part after the 8-character hint must not be stored either.
        expect(bytes.includes(Buffer.from(key.slice(8))), `${f} holds the secret part of a key`).toBe(false);
        if (bytes.includes(Buffer.from(hashKey(key)))) digestsSeen++;
      }
    }
    expect(digestsSeen).toBeGreaterThanOrEqual(2);
  });
});
