import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { unreachable } from '../../../shared/errors';

/** Where the transport is: stopped, or playing forward or backward at a speed (1, 2, 4, 8). */
export type Shuttle = { dir: 'stopped' } | { dir: 'forward' | 'reverse'; speed: number };

const MAX_SPEED = 8;
const REVERSE_TICK_MS = 40;

export interface Transport {
  shuttle: Shuttle;
  /** Space and K-as-toggle: play at 1x, or stop. */
  toggle: () => void;
  /** K: stop, whatever the direction. */
  stop: () => void;
  /** L: forward at 1x, then faster each press; from reverse, forward at 1x. */
  forward: () => void;
  /** J: slower forward down to 1x, then reverse, then faster reverse each press. */
  reverse: () => void;
  /** Arrows and , / .: stop and move by `frames` frames. */
  step: (frames: number) => void;
}

/**
 * NLE transport keys over a <video>. Chromium plays only forward (a negative playbackRate throws), so reverse is the
 * video paused and stepped back on a timer at the shuttle speed.
 */
export function useShuttle(video: RefObject<HTMLVideoElement | null>, frame: number): Transport {
  const [shuttle, setShuttle] = useState<Shuttle>({ dir: 'stopped' });
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const current = useRef(shuttle);
  current.current = shuttle;

  const endReverse = (): void => {
    clearInterval(timer.current);
    timer.current = undefined;
  };
  useEffect(() => endReverse, []);

  const apply = useCallback(
    (next: Shuttle): void => {
      const v = video.current;
      endReverse();
      setShuttle(next);
      if (!v) return;
      switch (next.dir) {
        case 'stopped':
          v.pause();
          v.playbackRate = 1;
          return;
        case 'forward':
          v.playbackRate = next.speed;
          void v.play().catch(() => setShuttle({ dir: 'stopped' }));
          return;
        case 'reverse':
          v.pause();
          timer.current = setInterval(() => {
            const back = v.currentTime - (REVERSE_TICK_MS / 1000) * next.speed;
            v.currentTime = Math.max(0, back);
            if (back <= 0) apply({ dir: 'stopped' });
          }, REVERSE_TICK_MS);
          return;
        default:
          throw unreachable(next);
      }
    },
    [video],
  );

  // Native controls and the end of the file change the state too: follow them.
  useEffect(() => {
    const v = video.current;
    if (!v) return undefined;
    const onPause = (): void => {
      if (current.current.dir === 'forward') setShuttle({ dir: 'stopped' });
    };
    const onPlay = (): void => {
      if (current.current.dir !== 'forward') {
        endReverse();
        setShuttle({ dir: 'forward', speed: v.playbackRate });
      }
    };
    v.addEventListener('pause', onPause);
    v.addEventListener('play', onPlay);
    return () => {
      v.removeEventListener('pause', onPause);
      v.removeEventListener('play', onPlay);
    };
  });

  const s = shuttle;
  return {
    shuttle,
    toggle: () => apply(s.dir === 'stopped' ? { dir: 'forward', speed: 1 } : { dir: 'stopped' }),
    stop: () => apply({ dir: 'stopped' }),
    forward: () =>
      apply(
        s.dir === 'forward'
          ? { dir: 'forward', speed: Math.min(MAX_SPEED, s.speed * 2) }
          : { dir: 'forward', speed: 1 },
      ),
    reverse: () => {
      if (s.dir === 'forward' && s.speed > 1) apply({ dir: 'forward', speed: s.speed / 2 });
      else if (s.dir === 'reverse') apply({ dir: 'reverse', speed: Math.min(MAX_SPEED, s.speed * 2) });
      else apply({ dir: 'reverse', speed: 1 });
    },
    step: (frames: number) => {
      apply({ dir: 'stopped' });
      const v = video.current;
      if (!v) return;
      // Land inside the target frame, not on its edge, so rounding never shows the previous one.
      const index = Math.round(v.currentTime / frame) + frames;
      v.currentTime = Math.max(
        0,
        Math.min(Number.isFinite(v.duration) ? v.duration : Infinity, index * frame + frame / 4),
      );
    },
  };
}
