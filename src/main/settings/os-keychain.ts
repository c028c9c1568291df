import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { databaseVault, type KeyVault } from './key-vault';

/** One run of a keychain tool: exit status and output (spawn failures, e.g. ENOENT, as `error`). */
export type RunTool = (
  cmd: string,
  args: string[],
  input?: string,
) => { status: number | null; stdout: string; stderr: string; error?: Error };

const runTool: RunTool = (cmd, args, input) => {
  const r = spawnSync(cmd, args, { input, encoding: 'utf8', timeout: 15_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
};

/** The OS keychain through its command-line tool: secrets stored and found by an id. */
export interface Keychain {
  readonly name: 'secret-tool' | 'security';
  store(id: string, secret: string): void;
  /** The secret, or null when the keychain holds none under this id. */
  lookup(id: string): string | null;
}

const SERVICE = 'reelsync';

function failed(what: string, r: ReturnType<RunTool>): Error {
  return new Error(`${what} failed: ${r.error?.message ?? (r.stderr.trim() || `exit ${r.status}`)}`);
}

/** libsecret (GNOME Keyring, KWallet) through `secret-tool`; the secret goes over stdin, never on a command line. */
export function secretToolKeychain(run: RunTool = runTool): Keychain {
  return {
    name: 'secret-tool',
    store(id, secret) {
      const r = run('secret-tool', ['store', '--label=Reelsync API key', 'service', SERVICE, 'key', id], secret);
      if (r.status !== 0) throw failed('secret-tool store', r);
    },
    lookup(id) {
      const r = run('secret-tool', ['lookup', 'service', SERVICE, 'key', id]);
      if (r.status === 0) return r.stdout;
      if (r.status === 1 && r.stderr.trim() === '' && !r.error) return null;
      throw failed('secret-tool lookup', r);
    },
  };
}

/** The macOS login keychain through `security` (exit 44: no such item). */
export function macKeychain(run: RunTool = runTool): Keychain {
  return {
    name: 'security',
    store(id, secret) {
      // `security` takes the password as an argument only; it is visible to this user's processes for the call's span.
      const r = run('security', [
        'add-generic-password',
        '-U',
        '-s',
        SERVICE,
        '-a',
        id,
        '-l',
        'Reelsync API key',
        '-w',
        secret,
      ]);
      if (r.status !== 0) throw failed('security add-generic-password', r);
    },
    lookup(id) {
      const r = run('security', ['find-generic-password', '-s', SERVICE, '-a', id, '-w']);
      if (r.status === 0) return r.stdout.replace(/\n$/, '');
      if (r.status === 44) return null;
      throw failed('security find-generic-password', r);
    },
  };
}

/** The keychain this machine has at run time: its tool present and answering (a lookup of an unknown id), or null. */
export function detectKeychain(platform: NodeJS.Platform = process.platform, run: RunTool = runTool): Keychain | null {
  const candidate = platform === 'linux' ? secretToolKeychain(run) : platform === 'darwin' ? macKeychain(run) : null;
  if (!candidate) return null;
  try {
    return candidate.lookup(`probe-${randomUUID()}`) === null ? candidate : null;
  } catch {
    return null;
  }
}

/**
 * Keys kept in the OS keychain; the client database holds only `keychain:<tool>:<id>`. Reads older `plain:` values.
 * A keychain that answers but refuses to store (locked, no default collection) leaves the key in the database.
 */
export function keychainVault(keychain: Keychain): KeyVault {
  return {
    kind: 'os-keychain',
    seal(plain) {
      const id = randomUUID();
      try {
        keychain.store(id, plain);
      } catch {
        return databaseVault.seal(plain);
      }
      return `keychain:${keychain.name}:${id}`;
    },
    open(sealed) {
      if (sealed.startsWith('plain:')) return sealed.slice('plain:'.length);
      const m = /^keychain:([a-z-]+):([0-9a-f-]{36})$/.exec(sealed);
      if (!m) throw new Error('unknown sealed key format');
      if (m[1] !== keychain.name)
        throw new Error(`this key was stored with ${m[1]}, which is not this machine's keychain`);
      const secret = keychain.lookup(m[2] ?? '');
      if (secret === null) throw new Error('the key is no longer in the OS keychain: enter it again in Settings');
      return secret;
    },
  };
}

/**
 * The vault of the web mode and the command line: the OS keychain where its tool answers (secret-tool on Linux,
 * security on macOS), else the client database, which is private to the user (0600 in a 0700 folder).
 */
export function nodeKeyVault(): KeyVault {
  const keychain = detectKeychain();
  return keychain ? keychainVault(keychain) : databaseVault;
}
