import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnalyzeResult } from '../../src/server/indexer/analyze-video';
import type { Face, Label } from '../../src/server/indexer/types';

/**
 * What a stand-in for the indexer's analysis gives back: one 3 s segment whose keyframe (and the poster) is a copy of
 * `keyframe` in `workDir`, with the labels and caption a test chooses. For tests of what happens around an analysis
 * (queues, leases, re-indexing), not of the analysis itself.
 */
export async function oneShotAnalysis(
  workDir: string,
  keyframe: string,
  shot: { labels?: Label[]; caption?: string; faces?: Face[] },
): Promise<AnalyzeResult> {
  const keyframePath = join(workDir, 'k0.jpg');
  const posterPath = join(workDir, 'poster.jpg');
  await copyFile(keyframe, keyframePath);
  await copyFile(keyframe, posterPath);
  return {
    durationSeconds: 3,
    posterPath,
    segments: [
      {
        index: 0,
        start: 0,
        end: 3,
        keyframePath,
        shotQuality: null,
        ocrText: '',
        labels: shot.labels ?? [],
        transcript: '',
        caption: shot.caption ?? '',
        faces: shot.faces ?? [],
      },
    ],
    words: [],
    missingEngines: [],
    analyzers: [],
    failures: [],
  };
}
