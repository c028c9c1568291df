import type { Playback, SourceIdentity } from '../../../shared/contract/library';
import { codecDisplayName } from '../../../shared/codec-names';
import { timecodeAt } from '../../../shared/timecode';
import './source-timecode.css';

const PLAYING: Partial<Record<Playback['kind'], string>> = {
  proxy: 'Proxy',
  library: 'Library copy',
};

/**
 * The camera original's timecode and reel at the playhead, and a badge when the picture is the search proxy or the
 * library's copy (the original is ProRes, MXF or another format a browser cannot play).
 */
export function SourceTimecode({
  source,
  playback,
  time,
}: {
  source: SourceIdentity | null;
  playback: Playback | null;
  time: number;
}): React.JSX.Element | null {
  const tc = source ? timecodeAt(source.startFrame, source.rate, source.dropFrame, time) : null;
  const badge = playback ? PLAYING[playback.kind] : undefined;
  if (!tc && !badge) return null;
  const why = source?.codec
    ? `the original (${codecDisplayName(source.codec, source.profile)}) does not play in a browser`
    : 'the original is not here';
  return (
    <span className="source-tc" data-testid="player-source">
      {tc && (
        <>
          <span className="source-tc-label">Source</span>
          <span
            className="mono"
            data-testid="player-source-tc"
            title={`${source?.clipName ?? ''} from ${source?.startTimecode ?? ''}`}
          >
            {tc}
          </span>
          {source?.reel && <span className="muted">{source.reel}</span>}
        </>
      )}
      {badge && (
        <span
          className="playing-badge"
          data-testid="player-playing"
          title={`Playing the ${badge.toLowerCase()}: ${why}`}
        >
          {badge}
        </span>
      )}
    </span>
  );
}
