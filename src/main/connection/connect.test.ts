import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempClientDb } from '../../../test/helpers/temp-db';
import { connectTarget } from '../cli/connect';
import { UsageError } from '../cli/options';
import { createLogger } from '../log';
import { AppSettings } from '../settings/app-settings';
import { databaseVault } from '../settings/key-vault';
import { connectLibrary } from './connect';

const temp = useTempClientDb();

const options = () => ({ dataDir: temp.dir, logger: createLogger('test') });

describe('the one connector', () => {
  it('follows the settings: a cloud endpoint without a key is not configured, with one it connects', async () => {
    const settings = new AppSettings(temp.db, databaseVault);
    settings.setEndpoint({ mode: 'cloud', url: 'http://127.0.0.1:9/serve/api/v1' });
    expect(await connectLibrary(settings, { kind: 'settings' }, options())).toMatchObject({
      state: 'not-configured',
      mode: 'cloud',
    });
    settings.setCloudKey('k-cloud');
    const outcome = await connectLibrary(settings, { kind: 'settings' }, options());
    expect(outcome).toMatchObject({
      state: 'connected',
      connection: { mode: 'cloud', baseUrl: 'http://127.0.0.1:9/serve/api/v1', key: 'k-cloud' },
    });
  });

  it('the command line: --server needs --key; without --server the embedded service, the given key first', () => {
    const db = join(temp.dir, 'c.db');
    expect(() => connectTarget({ server: 'http://127.0.0.1:9/serve/api/v1', db })).toThrow(UsageError);
    expect(connectTarget({ server: 'http://127.0.0.1:9/serve/api/v1', key: 'k', db })).toEqual({
      kind: 'given',
      baseUrl: 'http://127.0.0.1:9/serve/api/v1',
      key: 'k',
    });
    expect(connectTarget({ db })).toEqual({ kind: 'embedded', key: undefined });
    expect(connectTarget({ key: 'k2', db })).toEqual({ kind: 'embedded', key: 'k2' });
  });
});
