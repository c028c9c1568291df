import { Film } from 'lucide-react';
import { useState } from 'react';
import { localMediaUrl } from '../transport';

/**
 * The file's own picture, decoded by the browser from the local original (only rows on screen exist, so only they
 * load): a frame near the start as the poster, and moving the pointer across it scrubs through the clip.
 */
export function PosterThumb({
  path,
  duration,
  playable,
}: {
  path: string;
  duration: number | null;
  playable: boolean;
}): React.JSX.Element {
  const [failed, setFailed] = useState(false);
  if (!playable || failed) {
    return (
      <div className="poster-thumb poster-none" aria-hidden="true">
        <Film size={18} />
      </div>
    );
  }
  const posterAt = duration ? Math.min(1, duration / 4) : 0.5;
  return (
    <div className="poster-thumb">
      <video
        className="poster-video"
        src={`${localMediaUrl(path)}#t=${posterAt}`}
        preload="metadata"
        muted
        playsInline
        tabIndex={-1}
        aria-hidden="true"
        data-testid="poster"
        onError={() => setFailed(true)}
        onMouseMove={(e) => {
          const v = e.currentTarget;
          if (!duration || v.readyState < 1) return;
          const box = v.getBoundingClientRect();
          v.currentTime = Math.max(
            0,
            Math.min(duration - 0.05, ((e.clientX - box.left) / Math.max(1, box.width)) * duration),
          );
        }}
        onMouseLeave={(e) => {
          if (e.currentTarget.readyState >= 1) e.currentTarget.currentTime = posterAt;
        }}
      />
    </div>
  );
}
