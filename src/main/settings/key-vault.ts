/**
 * Seals secrets (API keys) before they are written to the client database. The Electron shell provides one backed
 * by safeStorage (the OS keychain); the web mode and the command line use the OS keychain's tool where one answers
 * (os-keychain.ts), else keep keys in the client database (0600), never in a plain file of their own.
 */
export interface KeyVault {
  readonly kind: 'os-keychain' | 'database';
  seal(plain: string): string;
  open(sealed: string): string;
}

/** Keys stored as they are, inside the client database (web mode, command line, tests). */
export const databaseVault: KeyVault = {
  kind: 'database',
  seal: (plain) => `plain:${plain}`,
  open: (sealed) => {
    if (!sealed.startsWith('plain:'))
      throw new Error('this key was sealed with the OS keychain: open it in the desktop app');
    return sealed.slice('plain:'.length);
  },
};
