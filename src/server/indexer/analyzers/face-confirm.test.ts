import { describe, expect, it } from 'vitest';
import { faceConfirmed, skinShare } from './face-confirm';

const W = 100;
const H = 100;

/** A frame of one colour with a square of another at [30, 30, 40, 40]. */
function frame(background: [number, number, number], square: [number, number, number]): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) rgb.set(x >= 30 && x < 70 && y >= 30 && y < 70 ? square : background, (y * W + x) * 3);
  return rgb;
}

const FACE = { box: [30, 30, 40, 40] as [number, number, number, number], score: 0.6 };
const SKIN: [number, number, number] = [224, 172, 140];
const BLUE: [number, number, number] = [40, 90, 200];
const GREY: [number, number, number] = [128, 128, 128];

describe('a face needs more than the detector', () => {
  it('reads the share of skin in the middle of the box', () => {
    expect(skinShare(frame(BLUE, SKIN), W, H, FACE.box)).toBe(1);
    expect(skinShare(frame(SKIN, BLUE), W, H, FACE.box)).toBe(0);
  });

  it('keeps a face of skin colour, and one in greyscale inside a sure person box', () => {
    expect(faceConfirmed(FACE, [], frame(BLUE, SKIN), W, H)).toBe(true);
    expect(faceConfirmed(FACE, [{ box: [20, 10, 60, 90], score: 0.6 }], frame(GREY, GREY), W, H)).toBe(true);
  });

  it('drops one without skin and without a person box, or with only an unsure one', () => {
    expect(faceConfirmed(FACE, [], frame(GREY, BLUE), W, H)).toBe(false);
    expect(faceConfirmed(FACE, [{ box: [20, 10, 60, 90], score: 0.2 }], frame(GREY, GREY), W, H)).toBe(false);
    expect(faceConfirmed(FACE, [{ box: [80, 0, 20, 20], score: 0.9 }], frame(GREY, GREY), W, H)).toBe(false);
  });
});
