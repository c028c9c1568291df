/** A WordNet lexicographer file: the kind of thing a noun sense names (WordNet's lexnames). */
export type LexFile = 'artifact' | 'animal' | 'food' | 'person' | 'plant';

export interface VocabularyLabel {
  /** The label as the detector writes it (objects:centernet, COCO's 80 classes). */
  label: string;
  /** The WordNet noun for it when the label is not one ("cell phone" is WordNet's "cellphone"). */
  lemma?: string;
  /**
   * Which of the noun's senses the detector means: COCO's "mouse" is the computer mouse (artifact), not the rodent,
   * its "banana" the fruit (food), not the plant. The first sense in this file is taken; the first sense of all when
   * none is (WordNet files "traffic light" under communication).
   */
  lex: LexFile;
}

const artifacts = (labels: string): VocabularyLabel[] =>
  labels.split(',').map((label) => ({ label: label.trim(), lex: 'artifact' }));

/**
 * The object detector's vocabulary (COCO's 80 classes as @vladmandic/human's centernet labels them), with the WordNet
 * sense each means: what search relates query words to by hypernyms and hyponyms (thesaurus.ts).
 */
export const DETECTOR_VOCABULARY: readonly VocabularyLabel[] = [
  { label: 'person', lex: 'person' },
  ...artifacts('bicycle, car, motorcycle, airplane, bus, train, truck, boat, traffic light, fire hydrant'),
  { label: 'stop sign', lemma: 'street sign', lex: 'artifact' },
  ...artifacts('parking meter, bench'),
  ...['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe'].map(
    (label): VocabularyLabel => ({ label, lex: 'animal' }),
  ),
  ...artifacts('backpack, umbrella, handbag, tie, suitcase, frisbee, skis, snowboard'),
  { label: 'sports ball', lemma: 'ball', lex: 'artifact' },
  ...artifacts('kite, baseball bat, baseball glove, skateboard, surfboard, tennis racket, bottle'),
  { label: 'wine glass', lemma: 'wineglass', lex: 'artifact' },
  ...artifacts('cup, fork, knife, spoon, bowl'),
  ...['banana', 'apple', 'sandwich', 'orange', 'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake'].map(
    (label): VocabularyLabel => ({ label, lex: 'food' }),
  ),
  ...artifacts('chair, couch'),
  { label: 'potted plant', lemma: 'houseplant', lex: 'plant' },
  ...artifacts('bed, dining table, toilet, tv, laptop, mouse, remote, keyboard'),
  { label: 'cell phone', lemma: 'cellphone', lex: 'artifact' },
  ...artifacts('microwave, oven, toaster, sink, refrigerator, book, clock, vase, scissors, teddy bear, hair drier'),
  ...artifacts('toothbrush'),
];
