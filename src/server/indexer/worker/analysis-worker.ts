import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { analyzeVideo, createAnalyzers } from '../analyze-video';
import { unreachable } from '../../../shared/errors';
import { fromWorkerSchema, toWorkerSchema, workerDataSchema, type AnalyzeRequest, type FromWorker } from './protocol';

/**
 * The analysis worker thread: owns the analyzers for its lifetime (tesseract's thread, human's models on tfjs-wasm,
 * which block whichever thread runs them) and runs analyzeVideo for the host, one message per job. Started by
 * AnalysisWorker (analysis-host.ts); never imported by anything else.
 */

const port = parentPort;
if (!port) throw new Error('analysis-worker.ts must run in a worker thread');

const { logLevel } = workerDataSchema.parse(workerData);
// analyzeVideo adds its own module binding; the thread binding tells these lines from the HTTP thread's.
const log = pino({ name: 'reelsync-service', level: logLevel }, pino.destination(2)).child({ thread: 'analysis' });

/**
 * Analysis yields the CPU to the HTTP thread: on Linux a nice value belongs to one thread (pid 0 = the calling thread),
 * and the threads and processes this thread starts (tesseract's worker, ffmpeg, pocketsphinx) inherit it. On an idle
 * machine indexing runs as fast as before; on a busy one, answering requests comes first.
 */
const ANALYSIS_NICE = 10;
try {
  setPriority(0, ANALYSIS_NICE);
} catch (err) {
  log.warn({ err }, 'could not lower the analysis thread priority');
}

const analyzers = createAnalyzers();
const running = new Map<number, AbortController>();

function send(message: FromWorker): void {
  // Parsed on the way out too, so a result the host would refuse fails here, next to its cause.
  port?.postMessage(fromWorkerSchema.parse(message));
}

function analyze(id: number, request: AnalyzeRequest): void {
  const controller = new AbortController();
  running.set(id, controller);
  void analyzeVideo({
    ...request,
    analyzers,
    logger: log,
    signal: controller.signal,
    onProgress: (percent, stage) => send({ type: 'progress', id, percent, stage }),
  })
    .then(
      (result) => send({ type: 'result', id, result }),
      (err: unknown) => {
        const error =
          err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
        send({ type: 'failed', id, error, aborted: controller.signal.aborted });
      },
    )
    .finally(() => running.delete(id));
}

async function close(): Promise<void> {
  for (const controller of running.values()) controller.abort(new Error('the analysis worker is closing'));
  await Promise.allSettled(analyzers.map((a) => a.close()));
  send({ type: 'closed' });
}

port.on('message', (raw: unknown) => {
  const message = toWorkerSchema.parse(raw);
  switch (message.type) {
    case 'analyze':
      analyze(message.id, message.request);
      return;
    case 'abort':
      running.get(message.id)?.abort(new Error(message.reason));
      return;
    case 'close':
      void close();
      return;
    default:
      throw unreachable(message);
  }
});
