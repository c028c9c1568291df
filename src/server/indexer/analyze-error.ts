/** A video the indexer cannot turn into segments (no video stream, no duration, no keyframe), in plain words. */
export class AnalyzeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AnalyzeError';
  }
}
