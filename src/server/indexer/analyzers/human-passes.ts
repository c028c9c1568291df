import type { Config } from '@vladmandic/human';
import { z } from 'zod';
import type { Body, PeopleSeen } from './people-descriptors';

/**
 * Human runs in two passes on one instance, each call saying which modules it wants (human merges a call's config
 * into the instance's, so every call states all of them). The frame pass runs on every keyframe; the pose pass only
 * when the frame pass saw someone, so footage without people pays nothing for poses.
 */
export const FRAME_PASS: Partial<Config> = {
  face: { enabled: true },
  object: { enabled: true },
  body: { enabled: false },
  hand: { enabled: false },
  gesture: { enabled: false },
};

export const POSE_PASS: Partial<Config> = {
  face: { enabled: false },
  object: { enabled: false },
  // movenet-lightning finds one body: the most prominent person's pose. Hands stay off: handtrack and its landmarks
  // cost four times the body pass and, on real photos, found finger positions ("index up") rather than gestures.
  body: { enabled: true, maxDetected: 1, minConfidence: 0.3 },
  hand: { enabled: false },
  gesture: { enabled: true },
};

/** The models each pass needs, as human names them once loaded. */
export const PASS_MODELS = ['centernet', 'blazeface', 'emotion', 'movenet'];

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
/** A keypoint movenet is at least this sure of counts as seen (the pose pass's own minConfidence). */
const POINT_MIN_SCORE = 0.3;
const pointSchema = z.object({ position: z.array(z.number()).min(2), score: z.number() });
const bodySchema = z.object({ box: boxSchema, score: z.number(), keypoints: z.array(pointSchema).default([]) });
const gestureSchema = z.object({ gesture: z.string(), body: z.number().int().optional() });
// Items are checked one by one: movenet reports a body with no keypoint above its threshold with an infinite box.
const poseSchema = z.object({ body: z.array(z.unknown()), gesture: z.array(z.unknown()) });

/** Each item that is a well-formed detection, null in its place otherwise (gestures refer to bodies by index). */
function bodyItems(items: unknown[]): (Body | null)[] {
  return items.map((item) => {
    const parsed = bodySchema.safeParse(item);
    if (!parsed.success) return null;
    const { box, score, keypoints } = parsed.data;
    const points = keypoints
      .filter((k) => k.score >= POINT_MIN_SCORE)
      .map((k): [number, number] => [k.position[0]!, k.position[1]!]);
    return { box, score, points };
  });
}

/** The bodies and body gestures of a pose pass result; a gesture's score is its body's. */
export function readPose(raw: unknown): Pick<PeopleSeen, 'bodies' | 'gestures'> {
  const pose = poseSchema.parse(raw);
  const bodies = bodyItems(pose.body);
  const gestures: PeopleSeen['gestures'] = [];
  for (const item of pose.gesture) {
    const g = gestureSchema.safeParse(item);
    if (!g.success) continue;
    const body = g.data.body === undefined ? null : bodies[g.data.body];
    if (body) gestures.push({ gesture: g.data.gesture, score: body.score });
  }
  return { bodies: bodies.filter((b): b is Body => b !== null), gestures };
}

/** Objects only: the second look at a crop around an unsure small object (object-confirm.ts). */
export const OBJECT_PASS: Partial<Config> = { ...FRAME_PASS, face: { enabled: false } };
