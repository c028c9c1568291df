import type { Analyzer } from '../types';
import { ColourAnalyzer } from './colour';
import { DrawingAnalyzer } from './drawing';
import { MotionAnalyzer } from './motion';
import { ObjectsAnalyzer } from './objects';
import { OcrAnalyzer } from './ocr';
import { PeopleAnalyzer } from './people';
import { SpeechAnalyzer } from './speech';

export { ColourAnalyzer } from './colour';
export { MotionAnalyzer } from './motion';
export { ObjectsAnalyzer } from './objects';
export { OcrAnalyzer } from './ocr';
export { SpeechAnalyzer } from './speech';
export { DrawingAnalyzer } from './drawing';
export { PeopleAnalyzer } from './people';

/**
 * Every analyzer this build knows. Whether each can run here is asked with `available()`; keep the instances for the
 * life of the service (OCR keeps a worker thread, objects keeps its models) and `close()` them at shutdown.
 */
export function createAnalyzers(): Analyzer[] {
  return [
    new OcrAnalyzer(),
    new ObjectsAnalyzer(),
    new SpeechAnalyzer(),
    new PeopleAnalyzer(),
    new DrawingAnalyzer(),
    new ColourAnalyzer(),
    new MotionAnalyzer(),
  ];
}
