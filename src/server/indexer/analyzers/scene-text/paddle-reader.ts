import { SceneTextThread } from '../../worker/scene-text-thread';
import type { ReadWord } from './ctc';
import { MODEL_FILES } from './models';
import type { RgbImage } from './warp';

/**
 * PaddleOCR's PP-OCRv4 (detection, then recognition of each region) on onnxruntime, in a thread of its own: onnxruntime
 * computes on the thread that calls it, and on the analysis thread OCR and the detectors took turns on one core.
 */
export class PaddleReader {
  readonly version = `PP-OCRv4 ${MODEL_FILES.detection} ${MODEL_FILES.recognition}`;

  private readonly thread = new SceneTextThread();

  /** Starts the reader's thread and loads the models there; they stay loaded until close. */
  async start(): Promise<void> {
    await this.thread.start();
  }

  /** The lines of a picture, each as its words with their recognition confidence. */
  async read(image: RgbImage): Promise<ReadWord[][]> {
    return this.thread.read(image);
  }

  /** Ends the thread and its models. Safe to call twice. */
  async close(): Promise<void> {
    await this.thread.close();
  }
}
