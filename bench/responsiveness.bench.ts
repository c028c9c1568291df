import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { parseConfig } from '../src/server/config';
import { analyzeVideo, createAnalyzers } from '../src/server/indexer/analyze-video';
import type { Analyze } from '../src/server/jobs/index-worker';
import { startService } from '../src/server/service';
import { API_BASE_PATH, type UploadedVideo } from '../src/shared/api-types';
import { apiClient, waitForStatus, type ApiClient } from '../test/helpers/api';
import { tempDir } from '../test/helpers/temp';
import type { Benchmark, Figure } from './harness';
import { benchClip, DURATION } from './titled-clip';

/**
 * The HTTP client runs in its own thread, so a stalled service thread cannot delay the sending of a request: each
 * latency is request-sent to response-read. Requests go one after another, 10 ms apart, over one keep-alive socket.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let stop = false;
parentPort.on('message', () => { stop = true; });
function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(workerData.url, { agent, headers: { authorization: workerData.key } }, (res) => {
      res.resume();
      res.on('end', () => { latencies.push(Number(process.hrtime.bigint() - started) / 1e6); resolve(); });
    });
    req.on('error', reject);
  });
}
(async () => {
  while (!stop) {
    await once();
    await new Promise((r) => setTimeout(r, 10));
  }
  parentPort.postMessage(latencies);
  agent.destroy();
})();
`;

async function measure(url: string, key: string, during: () => Promise<void>): Promise<number[]> {
  const client = new Worker(CLIENT, { eval: true, workerData: { url, key } });
  const latencies = new Promise<number[]>((resolve, reject) => {
    client.once('message', (m: number[]) => resolve(m));
    client.once('error', reject);
  });
  try {
    await during();
  } finally {
    client.postMessage('stop');
  }
  const result = await latencies;
  await client.terminate();
  return result;
}

function stats(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const f = (n: number): string => n.toFixed(1).padStart(7);
  return `${label.padEnd(36)} p50 ${f(at(0.5))} ms   p95 ${f(at(0.95))} ms   max ${f(sorted[sorted.length - 1] ?? NaN)} ms   (${ms.length} requests)`;
}

interface ModeFigures {
  idle: number[];
  indexing: number[];
  indexSeconds: number;
}

/** One service on a fresh data folder: a warm-up video (models load), then idle and indexing measurements. */
async function runMode(clip: string, analyze: Analyze | undefined): Promise<ModeFigures> {
  const { dir, cleanup } = await tempDir('reelsync-bench-responsive-');
  const service = await startService({ dataDir: dir, config: parseConfig({}), log: pino({ level: 'warn' }), analyze });
  try {
    const account = await service.ctx.accounts.ensure('bench');
    await service.ctx.accounts.setBalance(account.id, 1_000_000_000);
    const key = await service.ctx.accounts.createKey(account.id, 'library');
    const api: ApiClient = apiClient(`${service.url}${API_BASE_PATH}`, key);
    const upload = async (): Promise<string> => (await api.upload<UploadedVideo>(clip)).json.data?.videoNo ?? '';
    const warm = await upload();
    await waitForStatus(api, warm, 600_000);
    const metadataUrl = `${service.url}${API_BASE_PATH}/get_metadata?video_no=${warm}`;

    const idle = await measure(metadataUrl, key, () => new Promise((r) => setTimeout(r, 4000)));
    const measured = await upload();
    const started = Date.now();
    const indexing = await measure(metadataUrl, key, async () => {
      await waitForStatus(api, measured, 600_000);
    });
    return { idle, indexing, indexSeconds: (Date.now() - started) / 1000 };
  } finally {
    await service.close();
    await cleanup();
  }
}

const bench: Benchmark = {
  name: 'responsiveness',
  description: `GET /get_metadata latency while the service indexes a ${DURATION} s 1080p clip, analysis on the HTTP thread vs in the analysis worker; baseline: the same requests with the indexer idle`,
  async run() {
    const clip = await benchClip();
    // Before: the analyzers in the HTTP thread, as the service ran them until the analysis worker existed.
    const analyzers = createAnalyzers();
    const inThread = await runMode(clip, (opts) => analyzeVideo({ ...opts, analyzers }));
    await Promise.all(analyzers.map((a) => a.close()));
    // After: the service's own default, the analysis worker thread.
    const inWorker = await runMode(clip, undefined);

    const figure: Figure = {
      what: 'GET /get_metadata latency (sequential requests, 10 ms apart)',
      lines: [
        stats('idle (baseline, HTTP-thread run)', inThread.idle),
        stats(`indexing on the HTTP thread (${inThread.indexSeconds.toFixed(1)} s)`, inThread.indexing),
        stats('idle (baseline, worker run)', inWorker.idle),
        stats(`indexing in the worker (${inWorker.indexSeconds.toFixed(1)} s)`, inWorker.indexing),
      ],
    };
    return [figure];
  },
};

export default bench;
