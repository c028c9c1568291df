import { FolderOpen, GripVertical, Trash2 } from 'lucide-react';
import { useEffect, useState, type DragEvent } from 'react';
import type { ClipView } from '../../../shared/contract/clips';
import { useClipActions } from '../hooks/useClipActions';
import { useRevealLabel } from '../hooks/useReveal';
import { fileName, smpte } from '../lib/format';
import { returnFocusTo } from '../lib/return-focus';
import { localMediaUrl, transportKind } from '../transport';
import { CLIP_STATE_LABEL, clipTitle } from './ClipCard';
import { ConfirmDialog } from './ConfirmDialog';
import { TagEditor } from './TagEditor';
import { Tip } from './Tip';

const SEARCH_TYPE_LABEL: Record<string, string> = { BY_CLIP: 'visual', BY_AUDIO: 'speech', BY_CAPTION: 'caption' };

/** What a clip plays: its own file once cut, else the local original at the clip's start. */
function playable(clip: ClipView): string | null {
  if (clip.state === 'ready' && clip.path) return localMediaUrl(clip.path);
  if (clip.sourcePath) return `${localMediaUrl(clip.sourcePath)}#t=${clip.start},${clip.end}`;
  return null;
}

/** The selected clip: player, facts, editable tags and notes, reveal, drag out, delete. */
export function ClipDetail({ clip }: { clip: ClipView }): React.JSX.Element {
  const { update, remove, reveal, dragOut } = useClipActions();
  const revealLabel = useRevealLabel();
  const [notes, setNotes] = useState(clip.notes);
  const [name, setName] = useState(clip.name);
  const [confirm, setConfirm] = useState(false);
  const [deleteFile, setDeleteFile] = useState(false);
  useEffect(() => setNotes(clip.notes), [clip.id, clip.notes]);
  useEffect(() => setName(clip.name), [clip.id, clip.name]);
  const src = playable(clip);
  const ready = clip.state === 'ready' && clip.path !== null;
  const onDragStart = (e: DragEvent): void => {
    if (!clip.path) return;
    if (transportKind === 'electron') {
      e.preventDefault();
      dragOut.mutate(clip.id);
      return;
    }
    // Chromium lets a page drag a download out to the desktop or another app: the clip file through the media route.
    const url = new URL(localMediaUrl(clip.path), window.location.href).toString();
    e.dataTransfer.setData(
      'DownloadURL',
      `video/${clip.format === 'mkv' ? 'x-matroska' : clip.format === 'mov' ? 'quicktime' : 'mp4'}:${fileName(clip.path)}:${url}`,
    );
    e.dataTransfer.setData('text/plain', clip.path);
  };
  return (
    <aside className="clip-detail" aria-label="Clip" data-testid="clip-detail">
      <div className="clip-stage">
        {src ? (
          <video key={src} className="clip-video" src={src} controls muted preload="auto" data-testid="clip-video" />
        ) : (
          <p className="muted">Nothing to play until the clip is cut.</p>
        )}
      </div>
      <div className="row">
        <h2 className="clip-title" title={clipTitle(clip)}>
          {clipTitle(clip)}
        </h2>
        <span className="spacer" />
        <Tip
          text={
            transportKind === 'electron'
              ? 'Drag into your editing application'
              : 'Drag out to the desktop or an editor (Chromium)'
          }
        >
          <span
            className={ready ? 'drag-handle' : 'drag-handle disabled'}
            draggable={ready}
            onDragStart={onDragStart}
            aria-label="Drag the clip file out"
            role="button"
            tabIndex={-1}
          >
            <GripVertical size={14} aria-hidden="true" /> Drag
          </span>
        </Tip>
        <Tip text={revealLabel}>
          <button
            type="button"
            className="icon-button"
            aria-label={`${revealLabel}: the clip file`}
            disabled={!ready}
            onClick={() => reveal.mutate(clip.id)}
          >
            <FolderOpen size={14} />
          </button>
        </Tip>
        <Tip text="Delete the clip">
          <button
            type="button"
            className="icon-button"
            aria-label="Delete the clip"
            data-testid="clip-delete"
            onClick={() => setConfirm(true)}
          >
            <Trash2 size={14} />
          </button>
        </Tip>
      </div>
      <dl className="facts">
        <dt>State</dt>
        <dd data-testid="clip-state">
          {clip.state === 'failed' ? `Failed: ${clip.error ?? ''}` : CLIP_STATE_LABEL[clip.state]}
        </dd>
        <dt>Source</dt>
        <dd className="mono" title={clip.sourcePath ?? undefined}>
          {clip.sourcePath ? fileName(clip.sourcePath) : `the library’s copy of ${clip.videoName || 'this video'}`}
        </dd>
        <dt>Range</dt>
        <dd className="mono">
          {smpte(clip.start, clip.fps)} – {smpte(clip.end, clip.fps)}
          {clip.handles > 0 ? ` · handles ${clip.handles}s` : ''}
          {clip.duration !== null ? ` · file ${clip.duration.toFixed(2)} s` : ''}
        </dd>
        <dt>Found by</dt>
        <dd>
          {clip.query
            ? `“${clip.query}”${clip.searchType ? ` · ${SEARCH_TYPE_LABEL[clip.searchType] ?? clip.searchType} search` : ''}`
            : 'saved from the player'}
        </dd>
        {clip.text && (
          <>
            <dt>Line</dt>
            <dd className="muted">{clip.text}</dd>
          </>
        )}
        <dt>File</dt>
        <dd className="mono" title={clip.path ?? undefined} data-testid="clip-path">
          {clip.path ?? '—'}
          {clip.width ? ` · ${clip.width}×${clip.height ?? 0}` : ''} · {clip.format.toUpperCase()}{' '}
          {clip.mode === 'copy' ? '(stream copy)' : '(frame-accurate)'}
        </dd>
      </dl>
      <label className="field">
        <span className="field-label">Name</span>
        <input
          className="input"
          value={name}
          maxLength={200}
          placeholder={clip.videoName || clip.videoNo}
          data-testid="clip-name"
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name.trim() !== clip.name && update.mutate({ id: clip.id, name: name.trim() })}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
      </label>
      <span className="field-label">Tags</span>
      <TagEditor tags={clip.tags} onChange={(tags) => update.mutate({ id: clip.id, tags })} />
      <label className="field">
        <span className="field-label">Notes</span>
        <textarea
          className="input notes"
          rows={3}
          value={notes}
          maxLength={20_000}
          placeholder="Notes for the edit…"
          data-testid="clip-notes"
          onChange={(e) => setNotes(e.target.value)}
          onBlur={() => notes !== clip.notes && update.mutate({ id: clip.id, notes })}
        />
      </label>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={
          <>
            Delete “{clipTitle(clip)}” {smpte(clip.start, clip.fps)}?
          </>
        }
        cancelLabel="Keep"
        confirmLabel="Delete"
        tone="danger"
        confirmTestId="clip-delete-confirm"
        onConfirm={() => {
          remove.mutate({ id: clip.id, deleteFile });
          setConfirm(false);
        }}
        onCloseAutoFocus={returnFocusTo(() =>
          document.querySelector<HTMLElement>(`[data-testid="clip-card"][data-clip-id="${clip.id}"]`),
        )}
      >
        <label className="row tight">
          <input type="checkbox" checked={deleteFile} onChange={(e) => setDeleteFile(e.target.checked)} /> Also delete
          the clip file from disk
        </label>
      </ConfirmDialog>
    </aside>
  );
}
