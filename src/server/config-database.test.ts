import { describe, expect, it } from 'vitest';
import { ConfigError, DATABASE_URL_ENV, parseConfig } from './config';

const LOOPBACK = { host: '127.0.0.1' };
const parse = (raw: unknown, env: NodeJS.ProcessEnv = {}) => parseConfig(raw, LOOPBACK, env);

describe('config database.url', () => {
  it('is unset by default: SQLite in the data folder', () => {
    expect(parse({}).database.url).toBeUndefined();
  });

  it('takes a postgres:// or postgresql:// URL', () => {
    const url = 'postgres://reelsync@db.internal:5432/reelsync';
    expect(parse({ database: { url } }).database.url).toBe(url);
    expect(parse({ database: { url: 'postgresql://u:p@h/d' } }).database.url).toBe('postgresql://u:p@h/d');
  });

  it('refuses another scheme or a broken URL with the key named, never repeating a password', () => {
    expect(() => parse({ database: { url: 'mysql://root:s3cret-pw@h/d' } })).toThrow(ConfigError);
    for (const url of ['mysql://root:s3cret-pw@h/d', 'postgres://root:s3cret-pw@[bad/d', 42]) {
      let message = '';
      try {
        parse({ database: { url } });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^invalid config key database\.url: /);
      expect(message).not.toContain('s3cret-pw');
    }
    expect(() => parse({ database: { url: 'postgres://h/d', pool: 3 } })).toThrow(/database.*pool/);
  });

  it('comes from REELSYNC_DATABASE_URL when the file has none; the file wins', () => {
    const env = { [DATABASE_URL_ENV]: 'postgres://env@h/d' };
    expect(parse({}, env).database.url).toBe('postgres://env@h/d');
    expect(parse({ database: { url: 'postgres://file@h/d' } }, env).database.url).toBe('postgres://file@h/d');
    expect(parse({}, { [DATABASE_URL_ENV]: '' }).database.url).toBeUndefined();
    expect(() => parse({}, { [DATABASE_URL_ENV]: 'sqlite:///x.db' })).toThrow(
      `invalid ${DATABASE_URL_ENV}: must be a postgres:// or postgresql:// URL`,
    );
  });
});
