import { useQuery } from '@tanstack/react-query';
import { codecDisplayName } from '../../../shared/codec-names';
import {
  ArrowLeft,
  ChevronLeft,
  ChevronRight,
  FileWarning,
  MessageSquareText,
  Pause,
  Play,
  Scissors,
  Volume2,
  VolumeX,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../../shared/contract/library';
import { SaveClipDialog, type ClipTarget } from '../components/SaveClipDialog';
import { SourceTimecode } from '../components/SourceTimecode';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { Timeline } from '../components/Timeline';
import { Tip } from '../components/Tip';
import { TranscriptPanel } from '../components/TranscriptPanel';
import { useShuttle, type Shuttle } from '../hooks/useShuttle';
import { smpte } from '../lib/format';
import { rememberedMuted, rememberMuted } from '../lib/player-prefs';
import { call, localMediaUrl } from '../transport';
import { typingIn } from '../lib/typing-in';

function shuttleLabel(s: Shuttle): string {
  return s.dir === 'stopped' ? 'Stopped' : `${s.dir === 'forward' ? '▶' : '◀'} ${s.speed === 0.25 ? '¼' : s.speed}×`;
}

/**
 * Plays the local original at the matched time, marks every hit of this video on the timeline and steps between them;
 * opened from the Library it plays the whole file, with no hits. Keys as in an NLE: Space plays and stops, K stops,
 * J/L shuttle (with K held: a tap steps a frame, holding plays at ¼), arrows and , / . a frame, M mute, I/O in and
 * out, S save. Only our own controls show: the browser's would sit on top of the timeline with a second clock.
 */
export function PlayerPage({
  hits,
  index,
  found,
  from,
  onIndex,
  onBack,
}: {
  hits: SearchHit[];
  index: number;
  found: { query: string; searchType: string | null };
  /** Where the player was opened: the Library plays a whole file, Search a hit among the results. */
  from: 'library' | 'search';
  onIndex: (i: number) => void;
  onBack: () => void;
}): React.JSX.Element {
  const hit = hits[index];
  const video = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(hit?.start ?? 0);
  const [marks, setMarks] = useState<{ in: number | null; out: number | null }>({ in: null, out: null });
  const [saving, setSaving] = useState<ClipTarget | null>(null);
  const [showTranscript, setShowTranscript] = useState(false);
  const detail = useQuery({
    queryKey: ['video', hit?.videoNo],
    queryFn: () => call('library:video', { videoNo: hit?.videoNo ?? '' }),
    enabled: !!hit,
    retry: false,
  });
  const sameVideo = hits
    .map((h, i) => ({ h, i }))
    .filter(({ h }) => h.videoNo === hit?.videoNo)
    .sort((a, b) => a.h.start - b.h.start);
  const pos = sameVideo.findIndex((x) => x.i === index);
  const playback = detail.data?.playback ?? null;
  // What plays: the original, or its proxy or library copy when a browser cannot decode it (ProRes, MXF, MTS).
  const localPath = playback ? playback.path : (hit?.localPath ?? null);
  const fps = detail.data?.fps ?? null;
  const frame = 1 / (fps && fps > 0 ? fps : 25);
  const transport = useShuttle(video, frame, setTime);
  /** K held down: J and L then step a frame (a tap) or play at ¼ (held), as in an NLE. */
  const kHeld = useRef(false);
  const [muted, setMuted] = useState(rememberedMuted);
  /** Set while the browser's autoplay policy, not the editor, mutes the video: that is not remembered. */
  const policyMuted = useRef(false);
  const tc = (t: number): string => smpte(t, fps);

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

  const toggleMute = (): void => {
    const v = video.current;
    const next = !(v?.muted ?? muted);
    if (v) v.muted = next;
    setMuted(next);
    rememberMuted(next);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || saving || e.metaKey || e.ctrlKey || e.altKey || typingIn(e.target)) return;
      const v = video.current;
      const act = (f: () => void): void => {
        e.preventDefault();
        f();
      };
      switch (e.key) {
        case ' ':
          return act(transport.toggle);
        case 'k':
        case 'K':
          kHeld.current = true;
          return act(transport.stop);
        case 'j':
        case 'J':
          if (kHeld.current) return act(() => (e.repeat ? transport.slow('reverse') : transport.step(-1)));
          return act(transport.reverse);
        case 'l':
        case 'L':
          if (kHeld.current) return act(() => (e.repeat ? transport.slow('forward') : transport.step(1)));
          return act(transport.forward);
        case 'ArrowLeft':
        case ',':
          return act(() => transport.step(-1));
        case 'ArrowRight':
        case '.':
          return act(() => transport.step(1));
        case 'm':
        case 'M':
          return act(toggleMute);
        case 'i':
        case 'I':
          return act(() => setMarks((m) => ({ ...m, in: v?.currentTime ?? 0 })));
        case 'o':
        case 'O':
          return act(() => setMarks((m) => ({ ...m, out: v?.currentTime ?? 0 })));
        case 's':
        case 'S':
          return act(openSave);
        case 'n':
        case 'N':
          return act(() => pos >= 0 && pos < sameVideo.length - 1 && onIndex(sameVideo[pos + 1]?.i ?? index));
        case 'p':
        case 'P':
          return act(() => pos > 0 && onIndex(sameVideo[pos - 1]?.i ?? index));
        case 'Escape':
          return act(onBack);
        default:
          return undefined;
      }
    };
    const onKeyUp = (e: KeyboardEvent): void => {
      const key = e.key.toLowerCase();
      if (key === 'k') kHeld.current = false;
      // Letting go of J or L while K is held ends the slow motion.
      else if ((key === 'j' || key === 'l') && kHeld.current && transport.shuttle.dir !== 'stopped') transport.stop();
    };
    const onBlur = (): void => {
      kHeld.current = false;
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', onBlur);
    };
  });

  if (!hit) return <EmptyState icon={FileWarning} title="Nothing to play" />;
  const duration = detail.data?.duration ?? Math.max(hit.end, ...sameVideo.map((x) => x.h.end));
  const seek = (t: number): void => {
    if (video.current) video.current.currentTime = t;
    setTime(t);
  };
  return (
    <section className="page page-fill player-page" data-testid="player">
      <header className="page-header row">
        <button type="button" className="button" onClick={onBack} data-testid="player-back">
          <ArrowLeft size={14} aria-hidden="true" /> {from === 'library' ? 'Library' : 'Results'}
        </button>
        <h1 className="player-title">{detail.data?.name ?? hit.videoName ?? hit.videoNo}</h1>
        <span className="spacer" />
        {from === 'search' && (
          <>
            <Tip text="Previous hit in this video (P)">
              <button
                type="button"
                className="icon-button"
                aria-label="Previous hit"
                disabled={pos <= 0}
                onClick={() => onIndex(sameVideo[pos - 1]?.i ?? index)}
              >
                <ChevronLeft size={16} />
              </button>
            </Tip>
            <span className="muted" data-testid="hit-position">
              Hit {pos + 1} of {sameVideo.length} in this video · result {index + 1} of {hits.length}
            </span>
            <Tip text="Next hit in this video (N)">
              <button
                type="button"
                className="icon-button"
                aria-label="Next hit"
                disabled={pos >= sameVideo.length - 1}
                onClick={() => onIndex(sameVideo[pos + 1]?.i ?? index)}
              >
                <ChevronRight size={16} />
              </button>
            </Tip>
          </>
        )}
      </header>
      {detail.isLoading && <LoadingState label="Loading the video…" />}
      {detail.isError && !localPath && <ErrorState title="Could not load this video" error={detail.error} />}
      {detail.isSuccess && !localPath && (
        <EmptyState
          icon={FileWarning}
          title={
            playback?.kind === 'unplayable'
              ? 'This camera format does not play here'
              : 'The original is not on this computer'
          }
          testId="player-no-local"
        >
          <p>
            {playback?.kind === 'unplayable'
              ? `The original (${detail.data.source?.codec ? codecDisplayName(detail.data.source.codec, detail.data.source.profile) : 'its codec'}) does not play in a browser and its search proxy has left the cache. Save the moment as a clip: it is cut from the original.`
              : 'This video is in the library, but no watched folder holds its original any more. Save the moment as a clip to download it: the cost shows before anything is downloaded.'}
          </p>
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
              muted={muted}
              data-testid="player-video"
              onLoadedMetadata={(e) => {
                const v = e.currentTarget;
                v.currentTime = hit.start;
                // Sound autoplays only where the browser allows it; otherwise start muted, without forgetting the choice.
                v.play().catch(() => {
                  policyMuted.current = true;
                  v.muted = true;
                  void v.play().catch(() => undefined);
                });
              }}
              onVolumeChange={(e) => {
                if (e.currentTarget.muted === muted) return;
                setMuted(e.currentTarget.muted);
                if (policyMuted.current) policyMuted.current = false;
                else rememberMuted(e.currentTarget.muted);
              }}
              onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
              onSeeked={(e) => setTime(e.currentTarget.currentTime)}
              onPause={(e) => setTime(e.currentTarget.currentTime)}
            />
          </div>
          <Timeline
            duration={duration}
            time={time}
            frame={frame}
            label={tc(time)}
            ranges={
              from === 'search'
                ? sameVideo.map((x) => ({ start: x.h.start, end: x.h.end, current: x.i === index }))
                : []
            }
            marks={marks}
            onSeek={seek}
          />
          <div className="player-facts row">
            <button
              type="button"
              className="icon-button"
              aria-label={transport.shuttle.dir === 'stopped' ? 'Play (Space)' : 'Stop (K)'}
              onClick={transport.shuttle.dir === 'stopped' ? transport.toggle : transport.stop}
              data-testid="player-play"
            >
              {transport.shuttle.dir === 'stopped' ? <Play size={15} /> : <Pause size={15} />}
            </button>
            <span
              data-testid="player-time"
              className="mono"
              title={fps ? `${Math.round(fps * 100) / 100} fps` : 'frame rate unknown'}
            >
              {tc(time)}
            </span>
            <SourceTimecode source={detail.data?.source ?? null} playback={playback} time={time} />
            <span className="mono muted" data-testid="player-shuttle">
              {shuttleLabel(transport.shuttle)}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label={muted ? 'Unmute (M)' : 'Mute (M)'}
              aria-pressed={muted}
              onClick={toggleMute}
              data-testid="player-mute"
            >
              {muted ? <VolumeX size={15} /> : <Volume2 size={15} />}
            </button>
            {from === 'search' && (
              <span className="muted" data-testid="player-match">
                Match {tc(hit.start)} – {tc(hit.end)}
              </span>
            )}
            {hit.text && <span className="hit-text">“{hit.text}”</span>}
            <span className="spacer" />
            <button
              type="button"
              className="button"
              aria-pressed={showTranscript}
              onClick={() => setShowTranscript((v) => !v)}
              data-testid="player-transcript-toggle"
            >
              <MessageSquareText size={14} aria-hidden="true" /> Transcript
            </button>
            <span className="mono muted" data-testid="in-out">
              In {marks.in === null ? '—' : tc(marks.in)} · Out {marks.out === null ? '—' : tc(marks.out)}
            </span>
            <span
              className="muted kbd-hint"
              title="Space plays and stops · K stops · J and L shuttle back and forward (press again for faster) · K held with a tap of J or L: one frame, holding: ¼ speed · ← → or , . one frame · M mute · I and O in and out · S save a clip · N and P next and previous hit"
            >
              J K L · ← → frame · I O · S save
            </span>
            <button type="button" className="button primary" onClick={openSave} data-testid="player-save-clip">
              <Scissors size={14} aria-hidden="true" /> Save clip
            </button>
          </div>
          {showTranscript && <TranscriptPanel videoNo={hit.videoNo} time={time} label={tc} onSeek={seek} />}
        </>
      )}
      <SaveClipDialog target={saving} onClose={() => setSaving(null)} />
    </section>
  );
}
