import type { HandlerMap } from '../ipc/registry';
import { APP_VERSION } from '../version';

export type AppMode = 'electron' | 'web' | 'cli';

/** What the app is and where it runs (the About box, the status bar). */
export function aboutHandlers(o: { mode: AppMode; dataDir: string; startedAt: number }) {
  return {
    'app:info': () => ({
      name: 'Reelsync' as const,
      version: APP_VERSION,
      mode: o.mode,
      platform: process.platform,
      dataDir: o.dataDir,
      startedAt: o.startedAt,
    }),
  } satisfies HandlerMap;
}
