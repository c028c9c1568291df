import { spawn } from 'node:child_process';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { JobHandler } from '../jobs/job-queue';
import { startPullRelay, type PullRelay } from '../security/pull-relay';
import type { Datalake } from './datalake';
import { newVideoId, startIngest } from './start-ingest';
import type { StreamRow } from './streams';
import { ffmpegPath } from '../../common/media/tools';

export const STREAM_JOB = 'dl-stream';
const payloadSchema = z.object({ streamId: z.string() });
const POLL_MS = 500;
/**
 * How often a pull reads its stream's row: a stop (DELETE, a collection's purge) may come from another process (an
 * api replica), whose in-process abort cannot reach this one; the row says so within this long.
 */
const STOPPED_CHECK_MS = 2_000;
/** Demuxers a pull may use (HLS and the containers its segments come in, or a progressive file): none that reads other URLs. */
const PULL_FORMATS = 'hls,mpegts,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,flv,aac,mp3,ac3,eac3';

/**
 * Pulls a live http(s) source (an HLS playlist, or any input ffmpeg reads progressively) and cuts it into segments
 * without re-encoding; each finished segment is ingested like an uploaded file, so its captions, index and safety events
 * appear while the stream still plays. Runs until the source ends, fails, or the stream is stopped.
 */
export function streamHandler(dl: Datalake): JobHandler {
  const { ctx } = dl;
  return async (job, jobSignal) => {
    const { streamId } = payloadSchema.parse(JSON.parse(job.payload));
    const stream = await dl.streams.byId(streamId);
    if (!stream || (stream.status !== 'starting' && stream.status !== 'live')) return { type: 'finished' };
    const dir = join(dl.uploadDir, `stream-${stream.id}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const signal = dl.track(stream.id, jobSignal);
    // ffmpeg reads the source only through this loopback relay: it never resolves a user's URL or follows a redirect.
    let endPull = (): void => {};
    let relay: PullRelay;
    try {
      relay = await startPullRelay(stream.source_url, {
        allowPrivateTargets: ctx.config.network.allowPrivateTargets,
        onRefused: () => endPull(),
      });
    } catch (err) {
      dl.untrack(stream.id);
      await rm(dir, { recursive: true, force: true });
      await dl.streams.setStatus(
        stream.id,
        'failed',
        `cannot read ${stream.source_url}: ${err instanceof Error ? err.message : String(err)}`,
      );
      return { type: 'finished' };
    }
    // After a restart the pull starts again at the live edge; offsets carry on from what was already cut.
    const base = stream.next_offset;
    const child = spawn(
      ffmpegPath(),
      [
        '-hide_banner',
        '-nostats',
        '-loglevel',
        'error',
        '-rw_timeout',
        '15000000',
        // crypto only wraps an http segment of an AES-128 playlist (its nested URL is checked against this list too).
        '-protocol_whitelist',
        'http,tcp,crypto',
        '-format_whitelist',
        PULL_FORMATS,
        '-live_start_index',
        '0',
        '-i',
        relay.url,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        '-c',
        'copy',
        '-f',
        'segment',
        '-segment_time',
        String(stream.segment_seconds),
        '-reset_timestamps',
        '1',
        '-segment_format',
        'mpegts',
        '-segment_list',
        join(dir, 'list.csv'),
        '-segment_list_type',
        'csv',
        join(dir, 'seg%06d.ts'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], signal },
    );
    endPull = () => child.kill('SIGKILL');
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    });
    let taken = 0;
    const collect = async (): Promise<void> => {
      const lines = (await readFile(join(dir, 'list.csv'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
      for (const line of lines.slice(taken)) {
        const [file, start, end] = line.split(',');
        if (!file || start === undefined || end === undefined) continue;
        await ingestSegment(dl, stream, join(dir, file), base + Number(start), base + Number(end));
        taken += 1;
      }
    };
    try {
      let code: number | null | undefined;
      let checked = Date.now();
      while (code === undefined) {
        code = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), POLL_MS))]);
        await collect();
        if (code === undefined && Date.now() - checked >= STOPPED_CHECK_MS) {
          checked = Date.now();
          if (await stoppedElsewhere(dl, stream.id)) dl.abort(stream.id);
        }
      }
      if (jobSignal.aborted) throw jobSignal.reason;
      if (signal.aborted) return { type: 'finished' }; // stopped by DELETE
      const refusal = relay.refusal();
      if (refusal) await dl.streams.setStatus(stream.id, 'failed', refusal.message);
      else if (code === 0) await dl.streams.setStatus(stream.id, 'ended');
      else {
        const source = relay.lastProblem();
        await dl.streams.setStatus(
          stream.id,
          'failed',
          `ffmpeg exited with ${code ?? 'an error'}: ${stderr.trim().split('\n').slice(-2).join('; ')}${source ? ` (${source})` : ''}`,
        );
      }
      ctx.log.info({ stream: stream.id, segments: taken, code }, 'stream pull ended');
      return { type: 'finished' };
    } finally {
      dl.untrack(stream.id);
      if (child.exitCode === null) child.kill('SIGKILL');
      await relay.close();
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** Whether the stream's row says it no longer runs (stopped, or gone with its collection). */
async function stoppedElsewhere(dl: Datalake, streamId: string): Promise<boolean> {
  const row = await dl.streams.byId(streamId);
  return !row || (row.status !== 'starting' && row.status !== 'live');
}

async function ingestSegment(dl: Datalake, stream: StreamRow, file: string, start: number, end: number): Promise<void> {
  const videoId = newVideoId();
  await rename(file, dl.uploadPath(videoId));
  await dl.uploads.stage({ id: videoId, account_id: stream.account_id });
  const started = startIngest(
    dl,
    {
      accountId: stream.account_id,
      collectionId: stream.collection_id,
      sourceType: 'stream',
      sourceUrl: stream.source_url,
      filename: `${stream.id}-${String(Math.round(start * 1000)).padStart(9, '0')}.ts`,
      contentType: 'video/mp2t',
      fps: stream.fps,
      metadata: stream.metadata,
      callbackUrl: null,
      idempotencyKey: null,
      requestHash: null,
      stream: { id: stream.id, offset: start },
    },
    videoId,
  );
  await started.catch(async (err: unknown) => {
    await dl.uploads.remove({ id: videoId, account_id: stream.account_id });
    throw err;
  });
  await dl.streams.addSegment(stream.id, end);
}
