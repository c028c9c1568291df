/**
 * Which face descriptors may be compared, and how their distance becomes a score. Pure: no model is loaded here, so
 * search and the datalake can use it without the tfjs engine.
 *
 * Every stored face records the model that described it. Descriptors of different models live in unrelated spaces (and
 * differ in length), so they are never compared: a pair of different models has no score at all.
 */

/** @vladmandic/face-api's face recognition net (a dlib-style ResNet-34): 128 numbers, compared by Euclidean distance. */
export const FACE_API_MODEL = 'face-api:recognition-128';
/** @vladmandic/human's faceres embedding (1024 numbers, compared by cosine), what databases indexed before face-api hold. */
export const HUMAN_FACERES_MODEL = 'human:faceres-1024';
/** The model the indexer and photo search use today. */
export const FACE_MODEL = FACE_API_MODEL;

/** Descriptor length of each known model: a stored descriptor of another length is damaged and never compared. */
const LENGTHS: Record<string, number> = { [FACE_API_MODEL]: 128, [HUMAN_FACERES_MODEL]: 1024 };

/** face-api's documented same-person threshold on the Euclidean distance of two descriptors (its FaceMatcher default). */
export const SAME_PERSON_DISTANCE = 0.6;
/** Spread of the logistic below, in distance units. */
const DISTANCE_SCALE = 0.08;
/** Cosine similarity above which two faceres embeddings counted as one person (the threshold used before face-api). */
const FACERES_SAME_PERSON = 0.8;

/** A face descriptor with the model that produced it. */
export interface ModelDescriptor {
  model: string;
  descriptor: Float32Array;
}

export function euclideanDistance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * face-api distance to a score in [0, 1]: a logistic centred on the same-person threshold,
 * `score = 1 / (1 + exp((distance - 0.6) / 0.08))`.
 * - distance 0.6 (face-api's threshold) scores exactly 0.5, so "score > 0.5" means "same person" by face-api's rule;
 * - the scale 0.08 puts the usual same-person distances (<= 0.4) at >= 0.92 and the usual different-person ones
 *   (>= 0.8) at <= 0.08. Measured here: the astronaut across two generated frames (other size, place, brightness or a
 *   mirror image) 0.16-0.29 -> 0.99-0.98; against 7 faces of face-api's sample photos 0.69-0.84 -> 0.24-0.05.
 * It is a monotonic reading of the distance anchored on face-api's threshold, not a probability fitted to our footage.
 */
export function distanceToScore(distance: number): number {
  return 1 / (1 + Math.exp((distance - SAME_PERSON_DISTANCE) / DISTANCE_SCALE));
}

/**
 * Similarity of two faces in [0, 1], or null when they cannot be compared (different models, or a descriptor whose
 * length is not its model's). face-api: the calibrated score above; legacy faceres: cosine clamped to [0, 1].
 */
export function faceSimilarity(a: ModelDescriptor, b: ModelDescriptor): number | null {
  if (a.model !== b.model) return null;
  const length = LENGTHS[a.model];
  if (length === undefined || a.descriptor.length !== length || b.descriptor.length !== length) return null;
  if (a.model === HUMAN_FACERES_MODEL) return Math.max(0, Math.min(1, cosineSimilarity(a.descriptor, b.descriptor)));
  return distanceToScore(euclideanDistance(a.descriptor, b.descriptor));
}

/** Whether two faces count as one person, by their model's own rule; faces of different models never do. */
export function samePerson(a: ModelDescriptor, b: ModelDescriptor): boolean {
  const similarity = faceSimilarity(a, b);
  if (similarity === null) return false;
  return a.model === HUMAN_FACERES_MODEL ? similarity >= FACERES_SAME_PERSON : similarity > 0.5;
}

/** A stored descriptor BLOB (packed float32) as a Float32Array, copied so the Buffer's alignment does not matter. */
export function descriptorFromBlob(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/** A descriptor as the BLOB the faces table stores. */
export function descriptorToBlob(descriptor: readonly number[] | Float32Array): Buffer {
  return Buffer.from(Float32Array.from(descriptor).buffer);
}
