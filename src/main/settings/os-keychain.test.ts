import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/helpers/temp';
import { openDatabase } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import { AppSettings } from './app-settings';
import { detectKeychain, keychainVault, nodeKeyVault, secretToolKeychain } from './os-keychain';

/**
 * The web mode's and the command line's key vault against a real libsecret keyring: a private D-Bus session and an
 * unlocked gnome-keyring-daemon of their own (Debian: dbus, libsecret-tools, gnome-keyring), in a throwaway HOME.
 */
const tools = ['dbus-daemon', 'secret-tool', 'gnome-keyring-daemon'];
const missing = tools.filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length > 0)
  console.log(
    `os-keychain tests skipped: ${missing.join(', ')} not installed (apt-get install dbus libsecret-tools gnome-keyring)`,
  );

let dir: string;
let cleanup: () => Promise<void>;
let busPid = 0;
let busAddress = '';
let keyring: ChildProcess | undefined;
const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, home: process.env.HOME, data: process.env.XDG_DATA_HOME };

describe.skipIf(missing.length > 0)('key vault in the OS keychain (secret-tool)', () => {
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('reelsync-keychain-'));
    // An unencrypted login keyring written before the daemon starts: it loads it unlocked at once. Unlocking through
    // --unlock with a password on stdin raced the daemon's creation of the login collection ("Object does not exist
    // at path .../collection/login" for over a minute in a CI run on two cores).
    const keyrings = join(dir, '.local', 'share', 'keyrings');
    mkdirSync(keyrings, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(keyrings, 'login.keyring'),
      '[keyring]\ndisplay-name=login\nctime=0\nmtime=0\nlock-on-idle=false\nlock-after=false\n',
      { mode: 0o600 },
    );
    writeFileSync(join(keyrings, 'default'), 'login', { mode: 0o600 });
    // HOME first, so that a daemon D-Bus activation might start finds the same keyring.
    process.env.HOME = dir;
    delete process.env.XDG_DATA_HOME;
    const bus = spawnSync('dbus-daemon', ['--session', '--fork', '--print-address=1', '--print-pid=1'], {
      encoding: 'utf8',
    });
    const [address, pid] = bus.stdout.trim().split('\n');
    busPid = Number(pid);
    busAddress = address ?? '';
    process.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
    const daemon = spawn('gnome-keyring-daemon', ['--foreground', '--components=secrets'], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    keyring = daemon;
    // Ready once it prints its control folder; a secret-tool call before that would get a second daemon started by
    // D-Bus activation.
    const ready = new Promise<void>((resolve) =>
      daemon.stdout?.on('data', (b: Buffer) => b.toString().includes('GNOME_KEYRING_CONTROL') && resolve()),
    );
    await ready;
    // Until it has claimed its bus name a store may fail: wait until one works.
    await vi.waitFor(() => secretToolKeychain().store('ready-probe', 'x'), { timeout: 60_000, interval: 200 });
  });
  afterAll(async () => {
    keyring?.kill();
    if (busPid > 0) process.kill(busPid);
    restore('DBUS_SESSION_BUS_ADDRESS', saved.bus);
    restore('HOME', saved.home);
    restore('XDG_DATA_HOME', saved.data);
    await cleanup?.();
  });

  it('keeps the key out of the client database; the database holds only a reference', () => {
    const file = join(dir, 'reelsync.db');
    const db = openDatabase(file);
    const vault = nodeKeyVault();
    expect(vault.kind).toBe('os-keychain');
    const settings = new AppSettings(db, vault);
    const key = `rk_${'9'.repeat(40)}`;
    settings.setEmbeddedKey(key);
    settings.setCloudKey('cloud-secret-0123456789');
    expect(settings.embeddedKey()).toBe(key);
    expect(settings.cloudKey()).toBe('cloud-secret-0123456789');
    const stored = new SettingsStore(db).get('embedded.service.key.sealed') ?? '';
    expect(stored).toMatch(/^keychain:secret-tool:[0-9a-f-]{36}$/);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain(key);
    expect(bytes).not.toContain('cloud-secret-0123456789');
  });

  it('moves a key kept in plain text by an older version into the keychain on first read', () => {
    const db = openDatabase(join(dir, 'old.db'));
    new SettingsStore(db).set('embedded.service.key', 'rk_legacy_key_0000000000');
    const settings = new AppSettings(db, keychainVault(detectKeychain() ?? fail()));
    expect(settings.embeddedKey()).toBe('rk_legacy_key_0000000000');
    const sealed = new SettingsStore(db).get('embedded.service.key.sealed') ?? '';
    expect(sealed).toMatch(/^keychain:secret-tool:/);
    expect(new AppSettings(db, nodeKeyVault()).embeddedKey()).toBe('rk_legacy_key_0000000000');
    db.close();
  });

  it('without a session bus there is no keychain: the client database (0600) keeps the key', () => {
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/bus';
    try {
      expect(detectKeychain()).toBeNull();
      expect(nodeKeyVault().kind).toBe('database');
    } finally {
      process.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
    }
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function fail(): never {
  throw new Error('no keychain');
}
