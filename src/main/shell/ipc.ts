import type { IpcMain } from 'electron';
import { channelNames } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { HandlerRegistry } from '../ipc/registry';

/** Registers one ipcMain handler per contract channel; only frames of our own origin may call. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  registry: Pick<HandlerRegistry, 'invoke'>,
  appOrigin: string,
): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, req: unknown): Promise<Result<unknown>> | Result<unknown> => {
      const url = event.senderFrame?.url ?? '';
      if (!url.startsWith(`${appOrigin}/`))
        return { ok: false, error: { code: 'bad_request', message: 'sender not allowed' } };
      return registry.invoke(channel, req);
    });
  }
}
