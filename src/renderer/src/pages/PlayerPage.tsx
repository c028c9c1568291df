import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ChevronLeft, ChevronRight, FileWarning, Scissors } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../../shared/contract/library';
import { SaveClipDialog, type ClipTarget } from '../components/SaveClipDialog';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { Timeline } from '../components/Timeline';
import { Tip } from '../components/Tip';
import { timecode } from '../lib/format';
import { call, localMediaUrl } from '../transport';

/**
 * Plays the local original at the matched time, marks every hit of this video on the timeline and steps between them;
 * I and O set in and out points.
 */
export function PlayerPage({
  hits,
  index,
  found,
  onIndex,
  onBack,
}: {
  hits: SearchHit[];
  index: number;
  found: { query: string; searchType: string | null };
  onIndex: (i: number) => void;
  onBack: () => void;
}): React.JSX.Element {
  const hit = hits[index];
  const video = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(hit?.start ?? 0);
  const [marks, setMarks] = useState<{ in: number | null; out: number | null }>({ in: null, out: null });
  const [saving, setSaving] = useState<ClipTarget | null>(null);
  const detail = useQuery({ queryKey: ['video', hit?.videoNo], queryFn: () => call('library:video', { videoNo: hit?.videoNo ?? '' }), enabled: !!hit, retry: false });
  const sameVideo = hits.map((h, i) => ({ h, i })).filter(({ h }) => h.videoNo === hit?.videoNo).sort((a, b) => a.h.start - b.h.start);
  const pos = sameVideo.findIndex((x) => x.i === index);
  const localPath = detail.data?.localPath ?? hit?.localPath ?? null;

  useEffect(() => {
    const v = video.current;
    if (v && hit && v.readyState >= 1) v.currentTime = hit.start;
    setMarks({ in: null, out: null });
  }, [hit]);

  const openSave = (): void => {
    if (!hit) return;
    const start = marks.in ?? hit.start;
    const end = marks.out !== null && marks.out > start ? marks.out : Math.max(hit.end, start + 1);
    setSaving({ hit, start, end, ...found });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || saving) return;
      const v = video.current;
      if (e.key === 'i' || e.key === 'I') setMarks((m) => ({ ...m, in: v?.currentTime ?? 0 }));
      else if (e.key === 'o' || e.key === 'O') setMarks((m) => ({ ...m, out: v?.currentTime ?? 0 }));
      else if ((e.key === 's' || e.key === 'S') && !e.metaKey && !e.ctrlKey) {
        e.preventDefault();
        openSave();
      } else if (e.key === 'Escape') onBack();
      else if (e.key === 'n' && pos >= 0 && pos < sameVideo.length - 1) onIndex(sameVideo[pos + 1]?.i ?? index);
      else if (e.key === 'p' && pos > 0) onIndex(sameVideo[pos - 1]?.i ?? index);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!hit) return <EmptyState icon={FileWarning} title="Nothing to play" />;
  const duration = detail.data?.duration ?? Math.max(hit.end, ...sameVideo.map((x) => x.h.end));
  const seek = (t: number): void => {
    if (video.current) video.current.currentTime = t;
  };
  return (
    <section className="page page-fill player-page" data-testid="player">
      <header className="page-header row">
        <button type="button" className="button" onClick={onBack}>
          <ArrowLeft size={14} aria-hidden="true" /> Results
        </button>
        <h1 className="player-title">{detail.data?.name ?? hit.videoName ?? hit.videoNo}</h1>
        <span className="spacer" />
        <Tip text="Previous hit in this video (P)">
          <button type="button" className="icon-button" aria-label="Previous hit" disabled={pos <= 0} onClick={() => onIndex(sameVideo[pos - 1]?.i ?? index)}>
            <ChevronLeft size={16} />
          </button>
        </Tip>
        <span className="muted" data-testid="hit-position">
          Hit {pos + 1} of {sameVideo.length}
        </span>
        <Tip text="Next hit in this video (N)">
          <button type="button" className="icon-button" aria-label="Next hit" disabled={pos >= sameVideo.length - 1} onClick={() => onIndex(sameVideo[pos + 1]?.i ?? index)}>
            <ChevronRight size={16} />
          </button>
        </Tip>
      </header>
      {detail.isLoading && <LoadingState label="Loading the video…" />}
      {detail.isError && !localPath && <ErrorState title="Could not load this video" error={detail.error} />}
      {detail.isSuccess && !localPath && (
        <EmptyState icon={FileWarning} title="The original is not on this computer" testId="player-no-local">
          <p>This video is in the library, but no watched folder holds its original any more. Save the moment as a clip to download it: the cost shows before anything is downloaded.</p>
          <button type="button" className="button primary" onClick={openSave}>
            <Scissors size={14} aria-hidden="true" /> Save clip…
          </button>
        </EmptyState>
      )}
      {localPath && (
        <>
          <div className="video-stage">
            <video
              ref={video}
              className="player-video"
              src={localMediaUrl(localPath)}
              controls
              autoPlay
              muted
              data-testid="player-video"
              onLoadedMetadata={(e) => {
                e.currentTarget.currentTime = hit.start;
              }}
              onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
            />
          </div>
          <Timeline duration={duration} time={time} ranges={sameVideo.map((x) => ({ start: x.h.start, end: x.h.end, current: x.i === index }))} marks={marks} onSeek={seek} />
          <div className="player-facts row">
            <span data-testid="player-time" className="mono">
              {timecode(time)}
            </span>
            <span className="muted">
              Match {timecode(hit.start)} – {timecode(hit.end)}
            </span>
            {hit.text && <span className="hit-text">“{hit.text}”</span>}
            <span className="spacer" />
            <span className="mono muted" data-testid="in-out">
              In {marks.in === null ? '—' : timecode(marks.in)} · Out {marks.out === null ? '—' : timecode(marks.out)}
            </span>
            <span className="muted kbd-hint">I / O in and out · S save clip · N / P next and previous hit</span>
            <button type="button" className="button primary" onClick={openSave} data-testid="player-save-clip">
              <Scissors size={14} aria-hidden="true" /> Save clip
            </button>
          </div>
        </>
      )}
      <SaveClipDialog target={saving} onClose={() => setSaving(null)} />
    </section>
  );
}
