import { parentPort } from 'node:worker_threads';
import { judge, type Verdict } from './download-verdict';
import { toWorker, type FromWorker, type StartMessage } from './download-protocol';
import { rawGet } from './raw-get';

/*
 * The download thread: runs every download's socket reads and file writes (blocking writes, see raw-get.ts) so the
 * main process never waits on the disk and its event loop stays free. Progress is reported at most every 100 ms.
 */
const port = parentPort;
if (!port) throw new Error('download-worker.ts runs as a worker thread');
const running = new Map<number, AbortController>();
const post = (m: FromWorker): void => port.postMessage(m);

port.on('message', (raw: unknown) => {
  const m = toWorker.parse(raw);
  if (m.type === 'abort') running.get(m.id)?.abort(new Error('aborted'));
  else void run(m);
});

async function run(m: StartMessage): Promise<void> {
  const ac = new AbortController();
  running.set(m.id, ac);
  let unreported = 0;
  const flush = (): void => {
    if (unreported > 0) post({ type: 'bytes', id: m.id, n: unreported });
    unreported = 0;
  };
  const timer = setInterval(flush, 100);
  let verdict: Verdict | null = null;
  try {
    const res = await rawGet(
      m.url,
      { headers: m.headers, idleTimeoutMs: m.idleTimeoutMs, ca: m.ca, signal: ac.signal },
      (head) => {
        const v = judge(head, m);
        verdict = v;
        post({ type: 'head', id: m.id, verdict: v });
        if (v.type === 'body')
          return { kind: 'file', path: m.partPath, start: v.start, onBytes: (n) => (unreported += n) };
        return v.type === 'failure' ? { kind: 'text', limit: 1 << 20 } : { kind: 'none' };
      },
    );
    flush();
    if (!verdict) throw new Error('no response head');
    post({ type: 'done', id: m.id, verdict, head: res.head, bytes: res.bytes, text: res.text });
  } catch (err) {
    flush();
    const code = (err as { code?: unknown }).code;
    post({
      type: 'error',
      id: m.id,
      message: err instanceof Error ? err.message : String(err),
      code: typeof code === 'string' ? code : undefined,
    });
  } finally {
    clearInterval(timer);
    running.delete(m.id);
  }
}
