import type { ToService } from '../common/service-ipc';
import { unreachable } from '../shared/errors';
import type { ParentChannel } from './parent-channel';
import { usdToMicro } from './accounts/billing';
import type { RunningService } from './service';

/**
 * The service's side of the app's supervision: the ready message with its address, key creation for the app's first
 * run (answered over the channel, so the app's main thread never waits on a process) and a graceful stop.
 */
export function answerParent(
  parent: ParentChannel,
  service: RunningService & { url: string },
  shutdown: () => void,
): void {
  parent.onMessage((message) => {
    switch (message.type) {
      case 'create-key':
        void answerCreateKey(parent, service, message);
        return;
      case 'stop':
        shutdown();
        return;
      default:
        throw unreachable(message);
    }
  });
  const url = new URL(service.url);
  parent.send({ type: 'ready', url: service.url, port: Number(url.port), pid: process.pid });
}

async function answerCreateKey(
  parent: ParentChannel,
  service: RunningService,
  message: Extract<ToService, { type: 'create-key' }>,
): Promise<void> {
  try {
    const accounts = service.ctx.accounts;
    const account = await accounts.ensure(message.account);
    if (message.credits !== undefined) await accounts.setBalance(account.id, usdToMicro(message.credits));
    parent.send({ type: 'key-created', id: message.id, key: await accounts.createKey(account.id, message.interface) });
  } catch (err) {
    parent.send({ type: 'failed', id: message.id, message: err instanceof Error ? err.message : String(err) });
  }
}
