import { join } from 'node:path';
import { packageDir } from '../src/server/indexer/analyzers/human-engine';
import { packagedPhoto } from '../test/fixtures/eval-media';
import { photoPath } from '../test/fixtures/media';

/**
 * Real photographs on which human's face detector finds something, each with whether a person sees a face in it, for
 * counting how face confirmation trades invented faces against real ones (bench/face-confirm.bench.ts). Chosen by
 * running the detector over every photo of OpenCV's samples, MATE's nature wallpapers, face-api's sample portraits and
 * skimage's photos in four renditions and keeping those where it fired; the labelled frames' photos are among them.
 */
export interface FacePhoto {
  name: string;
  face: boolean;
  path: () => Promise<string>;
}

const opencv = (file: string, face: boolean): FacePhoto => ({
  name: file,
  face,
  path: () => packagedPhoto('opencv', file),
});
const mate = (file: string): FacePhoto => ({ name: file, face: false, path: () => packagedPhoto('mate', file) });

export const FACE_PHOTOS: FacePhoto[] = [
  // People: group portraits, a footballer, basketball players in greyscale, a man at a screen in profile.
  ...[1, 2, 3, 4, 5, 6].map((i) => ({
    name: `face-api sample${i}.jpg`,
    face: true,
    path: () => Promise.resolve(join(packageDir('@vladmandic/face-api'), 'demo', `sample${i}.jpg`)),
  })),
  { name: 'astronaut.png', face: true, path: () => photoPath('astronaut') },
  { name: 'camera.png', face: true, path: () => photoPath('camera') },
  opencv('messi5.jpg', true),
  opencv('basketball1.png', true),
  opencv('basketball2.png', true),
  opencv('left06.jpg', true),
  // No face: a man whose face a chessboard hides, logos, a head's silhouette, a circuit board, a page of notes, a
  // blurred page, book covers, a chick, a motorcycle, a water drop, a ladybird on a leaf, a storm.
  opencv('right01.jpg', false),
  opencv('opencv-logo.png', false),
  opencv('opencv-logo-white.png', false),
  opencv('templ.png', false),
  opencv('board.jpg', false),
  opencv('notes.png', false),
  opencv('text_defocus.jpg', false),
  opencv('right.jpg', false),
  opencv('chicky_512.png', false),
  { name: 'motorcycle_left.png', face: false, path: () => photoPath('motorcycle') },
  mate('Aqua.jpg'),
  mate('LadyBird.jpg'),
  mate('Storm.jpg'),
];
