import type { FrameFindings, Label, SegmentFrame } from '../types';
import { estimateMotion, grayThumb, type MotionEstimate } from './motion-estimate';
import { descriptor as label, PixelAnalyzer } from './pixel-analyzer';

export const CAMERA_SOURCE = 'motion:camera';
export const ACTIVITY_SOURCE = 'motion:activity';

/** Mean gray difference (0..255) under which two frames show a still picture (compression noise stays under 2). */
const STILL = 3;
/** A flat picture (mean neighbour step under this) shows no camera motion, whatever the numbers say. */
const MIN_TEXTURE = 1.5;
/** The model must explain the change: its residual at most this share of the difference without it. */
const EXPLAINED = 0.7;
/** Shifts under this fraction of the frame are shake, not a pan or tilt. */
const MIN_SHIFT = 0.03;
/** Zooms under this change of scale (5 %) are not named. */
const MIN_ZOOM = Math.log(1.05);
/** Share of moving blocks from which a shot is busy. */
const BUSY_SHARE = 0.25;
/** A camera held still: the best model moves the frame less than this (1 %) and scales it less than 2.5 %. */
const FIXED_SHIFT = 0.01;
const FIXED_ZOOM = Math.log(1.025);
/**
 * A frame in which nothing changes cannot tell a camera held still from a photograph or a freeze frame: its "static"
 * counts at most this, under a fixed camera's with things moving in front of it (a street, people walking).
 */
const FROZEN_STATIC_WEIGHT = 0.6;

/** Words for an estimate: static, pan, tilt, zoom (camera) and busy (things moving in the picture). */
export function motionLabels(m: MotionEstimate): Label[] {
  if (m.stillDifference < STILL) {
    return [label('static', FROZEN_STATIC_WEIGHT * (1 - (0.5 * m.stillDifference) / STILL), CAMERA_SOURCE)];
  }
  const labels: Label[] = [];
  const fixed =
    m.texture >= MIN_TEXTURE &&
    Math.abs(m.shiftX) < FIXED_SHIFT &&
    Math.abs(m.shiftY) < FIXED_SHIFT &&
    Math.abs(Math.log(m.model.scale)) < FIXED_ZOOM &&
    m.movingShare < BUSY_SHARE;
  // Things move, the background does not: the camera is static; the fewer moving blocks, the surer.
  if (fixed) labels.push(label('static', 0.5 + 0.5 * (1 - m.movingShare / BUSY_SHARE), CAMERA_SOURCE));
  const explained = m.texture >= MIN_TEXTURE && m.residual <= EXPLAINED * m.stillDifference;
  if (explained) {
    // Confidence: how much of the change the model explains.
    const fit = 1 - m.residual / m.stillDifference;
    const zoom = Math.abs(Math.log(m.model.scale));
    if (zoom >= MIN_ZOOM) labels.push(label('zoom', fit * (0.5 + zoom * 4), CAMERA_SOURCE));
    const x = Math.abs(m.shiftX);
    const y = Math.abs(m.shiftY);
    if (x >= MIN_SHIFT) labels.push(label('pan', fit * (0.5 + x * 5), CAMERA_SOURCE));
    if (y >= MIN_SHIFT) labels.push(label('tilt', fit * (0.5 + y * 5), CAMERA_SOURCE));
  }
  if (m.movingShare >= BUSY_SHARE) labels.push(label('busy', 0.3 + m.movingShare, ACTIVITY_SOURCE));
  return labels;
}

/**
 * Camera motion and activity of a segment from two of its frames (the keyframe and the one from its middle, which OCR
 * reads too) on 160 px gray copies: a few milliseconds a segment. A segment too short for a second frame gets none.
 */
export class MotionAnalyzer extends PixelAnalyzer {
  readonly name = 'motion';
  readonly version = 'motion global-zoom-shift 1';

  async analyze(segment: SegmentFrame): Promise<FrameFindings> {
    const later = await segment.laterFrame?.();
    if (!later) return {};
    const { width, height } = segment;
    const a = grayThumb(await segment.rgb(), width, height);
    const b = grayThumb(await later.rgb(), width, height);
    return { labels: motionLabels(estimateMotion(a, b)) };
  }
}
