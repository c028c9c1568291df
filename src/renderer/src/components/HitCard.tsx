import * as ContextMenu from '@radix-ui/react-context-menu';
import { PosterThumb } from './PosterThumb';
import './hit-card.css';
import { Eye, Film, Play, Scissors } from 'lucide-react';
import type { SearchHit } from '../../../shared/contract/library';
import { fileName, timecode } from '../lib/format';
import { keyframeUrl } from '../transport';

export interface HitActions {
  onSelect: () => void;
  onOpen: () => void;
  onPreview: () => void;
  onSave: () => void;
}

/** A 16:9 keyframe card: the frame, its time range, a score bar and the caption or transcript line; a context menu to open, preview or save a clip. */
export function HitCard({
  hit,
  selected,
  actions,
}: {
  hit: SearchHit;
  selected: boolean;
  actions: HitActions;
}): React.JSX.Element {
  // The local file's name now (renamed since upload or not), else the library's.
  const name = hit.localPath ? fileName(hit.localPath) : (hit.videoName ?? hit.videoNo);
  return (
    <ContextMenu.Root onOpenChange={(open) => open && actions.onSelect()}>
      <ContextMenu.Trigger asChild>
        <button
          type="button"
          role="gridcell"
          aria-selected={selected}
          className={selected ? 'hit-card selected' : 'hit-card'}
          onClick={actions.onSelect}
          onDoubleClick={actions.onOpen}
          data-testid="hit-card"
          data-video-no={hit.videoNo}
          tabIndex={selected ? 0 : -1}
        >
          <div className="hit-frame">
            {hit.keyframe ? (
              <img src={keyframeUrl(hit.keyframe.bucket, hit.keyframe.blob)} alt="" loading="lazy" />
            ) : hit.localPath ? (
              // Speech and caption hits carry no keyframe (the interface gives one to BY_CLIP only): the file's own
              // poster, made from the original on this computer, stands in.
              <PosterThumb path={hit.localPath} playable />
            ) : (
              <Film size={28} strokeWidth={1.25} aria-hidden="true" />
            )}
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
            {hit.why && (
              <div className="hit-why" data-testid="hit-why" title={hit.why}>
                {hit.why}
              </div>
            )}
            {hit.text && <div className="hit-text">{hit.text}</div>}
          </div>
        </button>
      </ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu" data-testid="hit-menu">
          <ContextMenu.Item className="menu-item" onSelect={actions.onOpen}>
            <Play size={13} aria-hidden="true" /> Open in player <span className="menu-key">Enter</span>
          </ContextMenu.Item>
          <ContextMenu.Item className="menu-item" onSelect={actions.onPreview}>
            <Eye size={13} aria-hidden="true" /> Preview <span className="menu-key">Space</span>
          </ContextMenu.Item>
          <ContextMenu.Separator className="menu-separator" />
          <ContextMenu.Item className="menu-item" onSelect={actions.onSave}>
            <Scissors size={13} aria-hidden="true" /> Save clip… <span className="menu-key">S</span>
          </ContextMenu.Item>
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
