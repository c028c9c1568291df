import * as ContextMenu from '@radix-ui/react-context-menu';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, FolderOpen, Scissors } from 'lucide-react';
import type { ClipView } from '../../../shared/contract/clips';
import { smpte } from '../lib/format';
import { call } from '../transport';
import type { PickKeys } from '../lib/selection';
import { ProgressBar } from './ProgressBar';

export const CLIP_STATE_LABEL: Record<ClipView['state'], string> = {
  queued: 'Queued',
  downloading: 'Downloading original',
  cutting: 'Cutting',
  ready: 'Ready',
  failed: 'Failed',
};

/** The editor's name for the clip, else the name of the video it comes from. */
export function clipTitle(clip: ClipView): string {
  return clip.name || clip.videoName || clip.videoNo;
}

/** The clip's still, from the local disk (works offline). */
export function ClipThumb({ clip }: { clip: ClipView }): React.JSX.Element {
  const thumb = useQuery({
    queryKey: ['clips', 'thumb', clip.id, clip.thumbnailPath],
    queryFn: () => call('clips:thumbnail', { id: clip.id }),
    enabled: clip.thumbnailPath !== null,
    staleTime: Infinity,
  });
  if (thumb.data?.dataUrl) return <img src={thumb.data.dataUrl} alt="" />;
  return clip.state === 'failed' ? (
    <AlertTriangle size={26} strokeWidth={1.25} aria-hidden="true" />
  ) : (
    <Scissors size={26} strokeWidth={1.25} aria-hidden="true" />
  );
}

export interface ClipCardActions {
  /** A click: with Shift or Ctrl/Cmd held it extends the selection (see lib/selection). */
  onSelect: (keys?: PickKeys) => void;
  onOpen: () => void;
  /** Shows the clip file in the system file manager. */
  onReveal: () => void;
  revealLabel: string;
}

/** A 16:9 card: still, time range, state while it is being made, the query that found it and its tags; right-click reveals the file. */
export function ClipCard({
  clip,
  selected,
  picked = selected,
  actions,
}: {
  clip: ClipView;
  /** The current card: the one the detail pane shows and the keyboard is on. */
  selected: boolean;
  /** Part of the selection that actions apply to. */
  picked?: boolean;
  actions: ClipCardActions;
}): React.JSX.Element {
  const { onSelect, onOpen } = actions;
  const busy = clip.state === 'queued' || clip.state === 'downloading' || clip.state === 'cutting';
  const card = (
    <button
      type="button"
      role="gridcell"
      aria-selected={picked}
      className={`hit-card${selected ? ' selected' : ''}${picked ? ' picked' : ''}`}
      onClick={(e) => onSelect(e)}
      onDoubleClick={onOpen}
      tabIndex={selected ? 0 : -1}
      data-testid="clip-card"
      data-state={clip.state}
      data-clip-id={clip.id}
    >
      <div className="hit-frame">
        <ClipThumb clip={clip} />
        <span className="hit-time">
          {smpte(clip.start, clip.fps)} – {smpte(clip.end, clip.fps)}
        </span>
        {clip.state !== 'ready' && (
          <span className={`hit-remote state-${clip.state}`}>{CLIP_STATE_LABEL[clip.state]}</span>
        )}
      </div>
      {busy && <ProgressBar value={null} label={CLIP_STATE_LABEL[clip.state]} />}
      <div className="hit-meta">
        <div className="hit-name" title={clipTitle(clip)}>
          {clipTitle(clip)}
        </div>
        <div className="clip-query muted">
          {clip.name ? `${clip.videoName || clip.videoNo} · ` : ''}
          {clip.query ? `“${clip.query}”` : 'saved from the player'}
        </div>
        {clip.tags.length > 0 && (
          <div className="tag-row">
            {clip.tags.slice(0, 4).map((t) => (
              <span key={t} className="tag-chip small">
                {t}
              </span>
            ))}
          </div>
        )}
      </div>
    </button>
  );
  return (
    <ContextMenu.Root onOpenChange={(open) => open && !picked && onSelect()}>
      <ContextMenu.Trigger asChild>{card}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu" data-testid="clip-menu">
          <ContextMenu.Item
            className="menu-item"
            disabled={clip.state !== 'ready' || clip.path === null}
            onSelect={actions.onReveal}
          >
            <FolderOpen size={13} aria-hidden="true" /> {actions.revealLabel}
          </ContextMenu.Item>
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
