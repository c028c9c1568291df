/** Seconds the timeline's keys move by: Left/Right a frame (Shift: a second), Page Up/Down ten seconds. */
function keyTarget(key: string, shift: boolean, time: number, frame: number, duration: number): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return time - (shift ? 1 : frame);
    case 'ArrowRight':
    case 'ArrowUp':
      return time + (shift ? 1 : frame);
    case 'PageDown':
      return time - 10;
    case 'PageUp':
      return time + 10;
    case 'Home':
      return 0;
    case 'End':
      return duration;
    default:
      return null;
  }
}

/** The player's timeline: matched ranges marked, the current hit highlighted, in/out points; click or arrow keys to seek. */
export function Timeline({
  duration,
  time,
  frame,
  label,
  ranges,
  marks,
  onSeek,
}: {
  duration: number;
  time: number;
  /** One frame in seconds. */
  frame: number;
  /** The current time as the player shows it (aria-valuetext). */
  label: string;
  ranges: { start: number; end: number; current: boolean }[];
  marks: { in: number | null; out: number | null };
  onSeek: (t: number) => void;
}): React.JSX.Element {
  const d = Math.max(duration, 0.001);
  const pct = (t: number): string => `${Math.max(0, Math.min(100, (t / d) * 100))}%`;
  return (
    <div
      className="timeline"
      role="slider"
      tabIndex={0}
      aria-label="Timeline"
      aria-valuemin={0}
      aria-valuemax={Math.round(d)}
      aria-valuenow={Math.round(time)}
      aria-valuetext={label}
      data-testid="timeline"
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        onSeek(((e.clientX - box.left) / box.width) * d);
      }}
      onKeyDown={(e) => {
        const to = keyTarget(e.key, e.shiftKey, time, frame, d);
        if (to === null) return;
        e.preventDefault();
        e.stopPropagation();
        onSeek(Math.max(0, Math.min(d, to)));
      }}
    >
      {ranges.map((r) => (
        <span
          key={`${r.start}-${r.end}`}
          className={r.current ? 'timeline-range current' : 'timeline-range'}
          data-testid="timeline-range"
          style={{ left: pct(r.start), width: `calc(${pct(r.end)} - ${pct(r.start)})` }}
        />
      ))}
      {marks.in !== null && marks.out !== null && marks.out > marks.in && (
        <span
          className="timeline-inout"
          style={{ left: pct(marks.in), width: `calc(${pct(marks.out)} - ${pct(marks.in)})` }}
        />
      )}
      {marks.in !== null && <span className="timeline-mark in" style={{ left: pct(marks.in) }} />}
      {marks.out !== null && <span className="timeline-mark out" style={{ left: pct(marks.out) }} />}
      <span className="timeline-head" style={{ left: pct(time) }} />
    </div>
  );
}
