import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, type ServiceConfig } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

const awsEnv = z.object({
  AWS_ACCESS_KEY_ID: z.string().min(1),
  AWS_SECRET_ACCESS_KEY: z.string().min(1),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
});

/**
 * The blob store the config asks for: the data folder's blobs/ by default, an S3 bucket with storage.s3. The AWS SDK
 * is loaded only then: it takes most of a second to load, which the embedded service's start should not pay.
 */
export async function openBlobStore(
  config: ServiceConfig,
  dataDir: string,
  tmpDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BlobStore> {
  const s3 = config.storage.s3;
  if (!s3) return new LocalBlobStore(join(dataDir, 'blobs'));
  const found = awsEnv.safeParse(env);
  if (!found.success) {
    const missing = [...new Set(found.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new ConfigError(
      `storage.s3 needs S3 credentials in the environment: ${missing} missing or empty ` +
        '(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, plus AWS_SESSION_TOKEN for temporary credentials)',
    );
  }
  const credentials = {
    accessKeyId: found.data.AWS_ACCESS_KEY_ID,
    secretAccessKey: found.data.AWS_SECRET_ACCESS_KEY,
    sessionToken: found.data.AWS_SESSION_TOKEN,
  };
  const { S3BlobStore } = await import('./s3-blob-store');
  return new S3BlobStore(s3, credentials, tmpDir);
}
