/** Player preferences kept in this browser profile (the Electron window's or the web mode's): survive restarts. */
const MUTED_KEY = 'reelsync.player.muted';

export function rememberedMuted(): boolean {
  try {
    return globalThis.localStorage?.getItem(MUTED_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberMuted(muted: boolean): void {
  try {
    globalThis.localStorage?.setItem(MUTED_KEY, muted ? '1' : '0');
  } catch {
    // Storage refused (private mode, quota): the choice lasts this session only.
  }
}
