import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { call, ContractError } from '../transport';
import './transcript-panel.css';

/**
 * The library's transcript of one video beside the player: one line per indexed segment with its start time (the
 * service gives speech per segment, not per word). Clicking a line seeks there; the line under the playhead is marked
 * and kept in view while the video plays.
 */
export function TranscriptPanel({
  videoNo,
  time,
  label,
  onSeek,
}: {
  videoNo: string;
  time: number;
  label: (t: number) => string;
  onSeek: (t: number) => void;
}): React.JSX.Element {
  const transcript = useQuery({
    queryKey: ['transcript', videoNo],
    queryFn: () => call('library:transcript', { videoNo }),
    retry: false,
  });
  const lines = transcript.data?.lines ?? [];
  const current = lines.findLastIndex((l) => l.start <= time + 0.001 && time < Math.max(l.end, l.start + 0.05));
  const currentRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    currentRef.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  let body: React.ReactNode;
  if (transcript.isLoading) body = <p className="muted">Loading the transcript…</p>;
  else if (transcript.isError)
    body = (
      <p className="muted" data-testid="transcript-error">
        {transcript.error instanceof ContractError && transcript.error.code === 'offline'
          ? 'The transcript comes from the library service, which is not reachable now.'
          : `Could not load the transcript: ${transcript.error.message}`}
      </p>
    );
  else if (lines.length === 0)
    body = (
      <p className="muted" data-testid="transcript-empty">
        No speech was found in this file.
      </p>
    );
  else
    body = (
      <ol className="transcript-lines">
        {lines.map((l, i) => (
          <li key={`${l.start}-${i}`}>
            <button
              type="button"
              ref={i === current ? currentRef : undefined}
              className={i === current ? 'transcript-line current' : 'transcript-line'}
              aria-current={i === current ? 'true' : undefined}
              onClick={() => onSeek(l.start)}
              data-testid="transcript-line"
            >
              <span className="mono muted transcript-time">{label(l.start)}</span>
              <span>{l.text}</span>
            </button>
          </li>
        ))}
      </ol>
    );
  return (
    <aside className="transcript-panel" aria-label="Transcript" data-testid="transcript-panel">
      <h2 className="transcript-title">Transcript</h2>
      {body}
    </aside>
  );
}
