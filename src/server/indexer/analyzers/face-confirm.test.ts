import { describe, expect, it } from 'vitest';
import { pixelVotes, skinShare } from './face-confirm';

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
const SURE_PERSON = { box: [20, 10, 60, 90] as [number, number, number, number], score: 0.6 };

describe('a face needs more than the detector', () => {
  it('reads the share of skin in the middle of the box', () => {
    expect(skinShare(frame(BLUE, SKIN), W, H, FACE.box)).toBe(1);
    expect(skinShare(frame(SKIN, BLUE), W, H, FACE.box)).toBe(0);
  });

  it('counts a vote for skin, one for a sure person box around the face, two for both', () => {
    expect(pixelVotes(FACE, [], frame(BLUE, SKIN), W, H)).toBe(1);
    expect(pixelVotes(FACE, [SURE_PERSON], frame(GREY, GREY), W, H)).toBe(1);
    expect(pixelVotes(FACE, [SURE_PERSON], frame(BLUE, SKIN), W, H)).toBe(2);
  });

  it('counts none without skin and without a person box, or with only an unsure or distant one', () => {
    expect(pixelVotes(FACE, [], frame(GREY, BLUE), W, H)).toBe(0);
    expect(pixelVotes(FACE, [{ box: [20, 10, 60, 90], score: 0.2 }], frame(GREY, GREY), W, H)).toBe(0);
    expect(pixelVotes(FACE, [{ box: [80, 0, 20, 20], score: 0.9 }], frame(GREY, GREY), W, H)).toBe(0);
  });
});
