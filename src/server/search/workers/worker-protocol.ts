import { parentPort } from 'node:worker_threads';
import { z } from 'zod';
import { unreachable } from '../../../shared/errors';

/**
 * Messages between the HTTP thread and a WorkerPool's threads: one request at a time per thread, answered by its
 * id. Both sides parse what they receive; a message that does not match is a bug on the other side.
 */

const jobId = z.number().int().positive();

export const toWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), id: jobId, request: z.unknown() }),
  z.object({ type: z.literal('close') }),
]);
export type ToWorker = z.infer<typeof toWorkerSchema>;

export const fromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: jobId, result: z.unknown() }),
  z.object({ type: z.literal('failed'), id: jobId, error: z.object({ name: z.string(), message: z.string() }) }),
]);
export type FromWorker = z.infer<typeof fromWorkerSchema>;

/** The worker side: answers each request with `handle`'s result or its error; `close` runs before the thread ends. */
export function serveRequests<Req>(
  request: z.ZodType<Req>,
  handle: (req: Req) => unknown,
  close: () => void = () => undefined,
): void {
  const port = parentPort;
  if (!port) throw new Error('a pool worker must run in a worker thread');
  const send = (message: FromWorker): void => port.postMessage(message);
  port.on('message', (raw: unknown) => {
    const message = toWorkerSchema.parse(raw);
    switch (message.type) {
      case 'run':
        Promise.resolve()
          .then(() => handle(request.parse(message.request)))
          .then(
            (result) => send({ type: 'result', id: message.id, result }),
            (err: unknown) => {
              const error =
                err instanceof Error
                  ? { name: err.name, message: err.message }
                  : { name: 'Error', message: String(err) };
              send({ type: 'failed', id: message.id, error });
            },
          );
        return;
      case 'close':
        close();
        port.close();
        return;
      default:
        throw unreachable(message);
    }
  });
}
