import type { SafeStorage } from 'electron';
import type { KeyVault } from '../settings/key-vault';

/** API keys sealed with the OS keychain (safeStorage) before they reach the client database. */
export function safeStorageVault(
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>,
): KeyVault {
  return {
    kind: 'os-keychain',
    seal: (plain) => {
      if (!safeStorage.isEncryptionAvailable())
        throw new Error('the OS keychain is not available: the key was not stored');
      return `safe:${safeStorage.encryptString(plain).toString('base64')}`;
    },
    open: (sealed) => {
      if (sealed.startsWith('plain:')) return sealed.slice('plain:'.length);
      if (!sealed.startsWith('safe:')) throw new Error('unknown sealed key format');
      return safeStorage.decryptString(Buffer.from(sealed.slice('safe:'.length), 'base64'));
    },
  };
}
