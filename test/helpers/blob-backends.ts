import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parseConfig } from '../../src/server/config';
import type { BlobStore } from '../../src/server/storage/blob-store';
import { openBlobStore } from '../../src/server/storage/open-blob-store';
import { startS3Server, type TestS3Server } from './s3-server';
import { tempDir } from './temp';

export interface BlobBackends {
  /** s3rver, started before the file's tests and stopped after them. */
  readonly s3: TestS3Server;
  /** A scratch folder, removed after the file's tests. */
  readonly dir: string;
  /** Both blob stores, each opened on a data folder: for describe.each. */
  readonly backends: readonly { name: string; open: (dir: string) => Promise<BlobStore> }[];
}

/** The local-disk and S3 blob stores for the calling test file, with the s3rver and scratch folder they need. */
export function useBlobBackends(): BlobBackends {
  let s3: TestS3Server | undefined;
  let scratch: { dir: string; cleanup: () => Promise<void> } | undefined;
  beforeAll(async () => {
    s3 = await startS3Server();
    scratch = await tempDir();
  });
  afterAll(async () => {
    await s3?.stop();
    await scratch?.cleanup();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useBlobBackends: read inside a test, after beforeAll');
    return value;
  };
  const env: BlobBackends = {
    get s3() {
      return started(s3);
    },
    get dir() {
      return started(scratch).dir;
    },
    backends: [
      { name: 'local disk', open: (dir) => openBlobStore(parseConfig({}), dir, join(dir, 'tmp')) },
      {
        name: 's3 (s3rver)',
        open: (dir) =>
          openBlobStore(parseConfig({ storage: { s3: env.s3.config } }), dir, join(dir, 'tmp'), env.s3.env),
      },
    ],
  };
  return env;
}
