import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { ModelCache } from './model-cache';
import { downloadModel } from './model-download';
import { plainDownloadFailure } from './download-words';
import { semanticConfigSchema } from './semantic-config';

/** Issue 28 item 7: offline is said plainly ("getaddrinfo ENOTFOUND huggingface.co" was shown as it was). */
describe('model download failures in plain words', () => {
  it('says a refused connection may be a firewall or proxy, naming the host, with the raw cause after', async () => {
    const { dir, cleanup } = await tempDir('reelsync-words-');
    try {
      const config = semanticConfigSchema.parse({ host: 'http://127.0.0.1:9', model: 'tests/tiny-clip' });
      const err = await downloadModel(
        config,
        new ModelCache(join(dir, 'data')),
        () => {},
        AbortSignal.timeout(30_000),
      ).catch((e: unknown) => e);
      const words = plainDownloadFailure(err, config.host);
      expect(words).toMatch(/^The model host 127\.0\.0\.1:9 refused or dropped the connection: a firewall or proxy/);
      expect(words).toContain('install the model from a folder');
      expect(words).toMatch(/\(.+\)$/);
    } finally {
      await cleanup();
    }
  }, 60_000);

  it('says a name that does not resolve means no network here', () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' });
    const words = plainDownloadFailure(new TypeError('fetch failed', { cause: dns }), 'https://huggingface.co');
    expect(words).toMatch(/^The model host huggingface\.co cannot be reached from this computer: no network/);
    expect(words).toContain('(fetch failed)');
  });
});
