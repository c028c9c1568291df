import { loadNsfwClassifier, type NsfwClass, type NsfwScores } from '../../indexer/analyzers/nsfw-model';

export type SafetyClass = NsfwClass;
export type FrameScores = NsfwScores;

export interface SafetyEngine {
  detectorId: string;
  detectorVersion: string;
  /** Class probabilities of one frame of packed RGB pixels. */
  classify(rgb: Uint8Array, width: number, height: number): Promise<FrameScores>;
}

/** nsfwjs as the safety scan sees it: the process-wide classifier the indexer's drawing analyzer shares. */
export async function loadSafetyEngine(): Promise<SafetyEngine> {
  const nsfw = await loadNsfwClassifier();
  return { detectorId: nsfw.id, detectorVersion: nsfw.version, classify: (rgb, w, h) => nsfw.classify(rgb, w, h) };
}
