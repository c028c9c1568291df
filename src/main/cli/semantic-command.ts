import cliProgress from 'cli-progress';
import { setTimeout as sleep } from 'node:timers/promises';
import { semanticStateLine, type SemanticState } from '../../shared/semantic-state';
import type { LibraryClient } from '../api/client';
import { formatBytes } from '../sync/validator';
import { EXIT } from './options';

/** `reelsync semantic status`: the slot's state in one line (ready: with its keyframes embedded and pending). */
export async function runSemanticStatus(client: LibraryClient, out: NodeJS.WriteStream): Promise<number> {
  const s = await client.semanticState();
  out.write(`${semanticStateLine(s)}${details(s)}\n`);
  return s.state === 'failed' ? EXIT.failed : EXIT.ok;
}

function details(s: SemanticState): string {
  if (s.state !== 'ready') return '';
  return `, ${formatBytes(s.sizeBytes)}; ${s.embeddedSegments} keyframes embedded, ${s.pendingSegments} to go`;
}

/**
 * `reelsync semantic download`: asks the service for the model and follows the download with a progress bar until
 * it is ready or has failed. Interrupted, the service keeps the part files: running it again resumes.
 */
export async function runSemanticDownload(
  client: LibraryClient,
  out: NodeJS.WriteStream,
  pollMs = 250,
): Promise<number> {
  let s = await client.startSemanticDownload();
  const bar = new cliProgress.SingleBar(
    {
      format: ' model |{bar}| {percentage}% {done}/{size} {rate} ETA {eta_formatted} {file}',
      stream: out,
      noTTYOutput: !out.isTTY,
      notTTYSchedule: 2000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  while (s.state === 'downloading') {
    if (s.totalBytes) {
      const payload = {
        done: formatBytes(s.receivedBytes),
        size: formatBytes(s.totalBytes),
        rate: s.bytesPerSecond === null ? '' : `${formatBytes(Math.round(s.bytesPerSecond))}/s`,
        file: s.file,
      };
      if (!started) bar.start(s.totalBytes, s.receivedBytes, payload);
      else bar.update(s.receivedBytes, payload);
      started = true;
    }
    await sleep(pollMs);
    s = await client.semanticState();
  }
  if (started) {
    if (s.state === 'ready') bar.update(bar.getTotal());
    bar.stop();
  }
  out.write(`${semanticStateLine(s)}${details(s)}\n`);
  return s.state === 'ready' ? EXIT.ok : EXIT.failed;
}
