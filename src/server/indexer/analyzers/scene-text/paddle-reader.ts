import type { ReadWord } from './ctc';
import { leaveSceneTextModels, MODEL_FILES, sceneTextModels, useSceneTextModels } from './models';
import { readSceneText } from './read-scene-text';
import type { RgbImage } from './warp';

/** PaddleOCR's PP-OCRv4 (detection, then recognition of each region) on onnxruntime. */
export class PaddleReader {
  readonly version = `PP-OCRv4 ${MODEL_FILES.detection} ${MODEL_FILES.recognition}`;

  private started = false;

  /** Loads the models (once per process) and holds them until close. */
  async start(): Promise<void> {
    if (this.started) return;
    await useSceneTextModels();
    this.started = true;
  }

  /** The lines of a picture, each as its words with their recognition confidence. */
  async read(image: RgbImage): Promise<ReadWord[][]> {
    await this.start();
    const lines = await readSceneText(await sceneTextModels(), image);
    return lines.map((l) => l.words);
  }

  /** Lets go of the models; they are released when no reader of this process holds them. Safe to call twice. */
  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await leaveSceneTextModels();
  }
}
