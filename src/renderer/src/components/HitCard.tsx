import { Film } from 'lucide-react';
import type { SearchHit } from '../../../shared/contract/library';
import { fileName, timecode } from '../lib/format';
import { keyframeUrl } from '../transport';

/** A 16:9 keyframe card: the frame, its time range, a score bar and the caption or transcript line. */
export function HitCard({ hit, selected, onSelect, onOpen }: { hit: SearchHit; selected: boolean; onSelect: () => void; onOpen: () => void }): React.JSX.Element {
  const name = hit.videoName ?? (hit.localPath ? fileName(hit.localPath) : hit.videoNo);
  return (
    <button
      type="button"
      role="gridcell"
      aria-selected={selected}
      className={selected ? 'hit-card selected' : 'hit-card'}
      onClick={onSelect}
      onDoubleClick={onOpen}
      data-testid="hit-card"
      data-video-no={hit.videoNo}
      tabIndex={selected ? 0 : -1}
    >
      <div className="hit-frame">
        {hit.keyframe ? <img src={keyframeUrl(hit.keyframe.bucket, hit.keyframe.blob)} alt="" loading="lazy" /> : <Film size={28} strokeWidth={1.25} aria-hidden="true" />}
        <span className="hit-time">
          {timecode(hit.start)} – {timecode(hit.end)}
        </span>
        {!hit.localPath && <span className="hit-remote">in the library only</span>}
      </div>
      <div className="hit-meta">
        <div className="hit-name" title={name}>
          {name}
        </div>
        <div className="score" title={`score ${hit.score.toFixed(2)}`}>
          <span className="score-fill" style={{ width: `${Math.round(hit.score * 100)}%` }} />
        </div>
        {hit.text && <div className="hit-text">{hit.text}</div>}
      </div>
    </button>
  );
}
