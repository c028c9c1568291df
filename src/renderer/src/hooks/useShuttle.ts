import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { unreachable } from '../../../shared/errors';

/** Where the transport is: stopped, or playing forward or backward at a speed (1/4 with K held, 1, 2, 4, 8). */
export type Shuttle = { dir: 'stopped' } | { dir: 'forward' | 'reverse'; speed: number };

const MAX_SPEED = 8;
/** K held with J or L held: slow motion, as in Avid, Premiere and Resolve. */
export const SLOW_SPEED = 0.25;
const REVERSE_TICK_MS = 40;

export interface Transport {
  shuttle: Shuttle;
  /** Space: play at 1x, or stop. */
  toggle: () => void;
  /** K: stop, whatever the direction. */
  stop: () => void;
  /** L: forward at 1x, then faster each press; from reverse, forward at 1x. */
  forward: () => void;
  /** J: slower forward down to 1x, then reverse, then faster reverse each press. */
  reverse: () => void;
  /** K held with J or L held: slow motion that way. */
  slow: (dir: 'forward' | 'reverse') => void;
  /** Arrows, , / . and K with a tap of J or L: stop and move by `frames` frames from the frame on screen. */
  step: (frames: number) => void;
}

/** The frame on screen at `time`: the one whose span holds it (a hair of slack for times stored as frame edges). */
export function frameIndexAt(time: number, frame: number): number {
  return Math.floor(time / frame + 1e-6);
}

/**
 * NLE transport keys over a <video>. Chromium plays only forward (a negative playbackRate throws), so reverse is the
 * video paused and moved back by wall-clock time at the shuttle speed, a seek at a time (a new seek only once the last
 * one landed, so frames show instead of a queue of cancelled seeks); `onTime` hears every position reverse passes,
 * since a paused video sends no timeupdate.
 */
export function useShuttle(
  video: RefObject<HTMLVideoElement | null>,
  frame: number,
  onTime: (t: number) => void,
): Transport {
  const [shuttle, setShuttle] = useState<Shuttle>({ dir: 'stopped' });
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const current = useRef(shuttle);
  current.current = shuttle;
  const heard = useRef(onTime);
  heard.current = onTime;

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
        case 'reverse': {
          v.pause();
          const from = v.currentTime;
          const started = performance.now();
          timer.current = setInterval(() => {
            const at = Math.max(0, from - ((performance.now() - started) / 1000) * next.speed);
            heard.current(at);
            if (!v.seeking) v.currentTime = at;
            if (at <= 0) apply({ dir: 'stopped' });
          }, REVERSE_TICK_MS);
          return;
        }
        default:
          throw unreachable(next);
      }
    },
    [video],
  );

  // The end of the file and the browser's own pauses change the state too: follow them.
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
        s.dir === 'forward' && s.speed >= 1
          ? { dir: 'forward', speed: Math.min(MAX_SPEED, s.speed * 2) }
          : { dir: 'forward', speed: 1 },
      ),
    reverse: () => {
      if (s.dir === 'forward' && s.speed > 1) apply({ dir: 'forward', speed: s.speed / 2 });
      else if (s.dir === 'reverse' && s.speed >= 1) apply({ dir: 'reverse', speed: Math.min(MAX_SPEED, s.speed * 2) });
      else apply({ dir: 'reverse', speed: 1 });
    },
    slow: (dir) => {
      if (s.dir !== dir || s.speed !== SLOW_SPEED) apply({ dir, speed: SLOW_SPEED });
    },
    step: (frames: number) => {
      apply({ dir: 'stopped' });
      const v = video.current;
      if (!v) return;
      // From the frame on screen (a stop can land mid-frame), to inside the target frame, never on its edge.
      const index = frameIndexAt(v.currentTime, frame) + frames;
      const end = Number.isFinite(v.duration) ? v.duration : Infinity;
      const at = Math.max(0, Math.min(end, index * frame + frame / 4));
      v.currentTime = at;
      heard.current(at);
    },
  };
}
