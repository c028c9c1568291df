import { S3Client } from '@aws-sdk/client-s3';

/** storage.s3 of the config file (config.ts). */
export interface S3Settings {
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
}

/** From AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (open-blob-store.ts). */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

/** The service's S3 client for a store: the same settings for every request it sends (objects, parts, PUTs). */
export function openS3Client(settings: S3Settings, credentials: S3Credentials): S3Client {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials,
    // Checksums only where S3 requires them: the newer default (CRC32 on every upload, aws-chunked bodies with
    // trailers) is refused or stored verbatim by several S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  if (settings.endpoint?.startsWith('http://')) unsignedPayloads(client);
  return client;
}

/**
 * Over HTTPS the SDK signs S3 requests without hashing their bodies (UNSIGNED-PAYLOAD); over plain HTTP (a store on
 * the LAN, MinIO, s3rver) it would SHA-256 every part before sending it, which halved the upload rate. The same
 * choice for both: TLS, not the signature, is what protects a body in transit, and the upload's own SHA-256 is
 * computed as it arrives.
 */
function unsignedPayloads(client: S3Client): void {
  client.middlewareStack.add(
    (next) => (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'reelsyncUnsignedPayload' },
  );
}
