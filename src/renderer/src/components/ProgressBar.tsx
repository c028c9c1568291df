import * as Progress from '@radix-ui/react-progress';

/** A thin progress bar (Radix Progress); value 0..100, or null while the amount is unknown. */
export function ProgressBar({
  value,
  label,
  tone = 'accent',
}: {
  value: number | null;
  label: string;
  tone?: 'accent' | 'ok' | 'warn';
}): React.JSX.Element {
  const v = value === null ? null : Math.max(0, Math.min(100, value));
  return (
    <Progress.Root className={`progress tone-${tone}`} value={v} max={100} aria-label={label}>
      <Progress.Indicator
        className={v === null ? 'progress-fill indeterminate' : 'progress-fill'}
        style={v === null ? undefined : { transform: `translateX(-${100 - v}%)` }}
      />
    </Progress.Root>
  );
}
